/* An app's world of its own: the namespaces it is started in and the filesystem view built inside
   them from the sandbox plan, with raw system calls only (this runs in a fork of a threaded
   process: no allocation, no lock). See tc_sandbox in CAppSandbox.h. */
#define _GNU_SOURCE
#include "CAppSandbox.h"

#include <errno.h>
#include <linux/capability.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where the view is built before the world pivots into it: any folder will do, since the mount
   namespace is the app's own (bubblewrap uses the same). */
#define TC_VIEW_BASE "/tmp"

/* The namespaces of a world. */
static unsigned long world_flags(const tc_sandbox *sandbox) {
    unsigned long flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
    return sandbox->host_network ? flags : flags | CLONE_NEWNET;
}

/* fork(), into new namespaces: the child is the first process of its PID namespace. */
pid_t tc_world_clone(const tc_sandbox *sandbox) {
    return (pid_t)syscall(SYS_clone, world_flags(sandbox) | SIGCHLD, NULL, NULL, NULL, NULL);
}

static int leave_at_once(void *unused) {
    (void)unused;
    _exit(0);
}

int tc_world_probe(void) {
    /* The child shares the caller's memory (it only exits), so the probe costs the namespaces
       alone, not a copy of the dashboard's page tables (1.5 ms at 30 MiB with fork). */
    static char stack[16384] __attribute__((aligned(16)));
    tc_sandbox probe = {.host_network = 0};
    pid_t child = clone(leave_at_once, stack + sizeof stack, (int)(world_flags(&probe) | CLONE_VM | CLONE_VFORK | SIGCHLD), NULL);
    if (child < 0) return errno;
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : ECHILD;
}

int tc_may_switch_ids(void) {
    if (geteuid() != 0) return 0;
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &header, data) != 0) return 0;
    const int needed[] = {CAP_SETUID, CAP_SETGID, CAP_SYS_ADMIN};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++) {
        if (!(data[CAP_TO_INDEX(needed[i])].effective & CAP_TO_MASK(needed[i]))) return 0;
    }
    return 1;
}

/* Decimal digits of `value` at `out`; returns the end. */
static char *put_number(char *out, unsigned long long value) {
    char digits[24];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (count > 0) *out++ = digits[--count];
    return out;
}

static char *put_text(char *out, const char *text) {
    while (*text) *out++ = *text++;
    return out;
}

static int write_file(const char *path, const char *text, size_t length) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ssize_t written = write(fd, text, length);
    int failure = written == (ssize_t)length ? 0 : (written < 0 ? errno : EIO);
    close(fd);
    return failure;
}

/* /proc/PID/FILE */
static void proc_path(char *path, pid_t pid, const char *file) {
    char *end = put_number(put_text(path, "/proc/"), (unsigned long long)pid);
    *end++ = '/';
    end = put_text(end, file);
    *end = 0;
}

/* Maps the app's ids into the world of `init`, written by its keeper from outside: ID inside is
   ID outside, one id each. A user without privileges may map only their own ids, and only with
   setgroups denied; root maps the unprivileged ids its apps run as. */
int tc_world_map(pid_t init, const tc_sandbox *sandbox) {
    char path[64], line[64];
    if (!sandbox->switch_ids) {
        proc_path(path, init, "setgroups");
        int failure = write_file(path, "deny", 4);
        if (failure != 0) return failure;
    }
    const struct { const char *file; unsigned int id; } maps[] = {{"uid_map", sandbox->app_uid}, {"gid_map", sandbox->app_gid}};
    for (int i = 0; i < 2; i++) {
        char *end = put_number(line, maps[i].id);
        *end++ = ' ';
        end = put_number(end, maps[i].id);
        end = put_text(end, " 1\n");
        proc_path(path, init, maps[i].file);
        int failure = write_file(path, line, (size_t)(end - line));
        if (failure != 0) return failure;
    }
    return 0;
}

/* For root's apps, which run as an unprivileged id: copies of the mount trees the view binds from
   the user's files (its own folder, its data folder, its grants), made by the keeper, which as
   root may, and idmapped so that what root owns there the app's id owns (and what the app makes
   there root owns on disk). Without them the app could not read its own folder, which is root's
   and private. System folders and devices are never idmapped: /etc/shadow stays root's. Each
   tree is opened once, by its real path with no symlink in it; `trees[i]` is -1 where the view's
   init opens the source itself. Returns 0 or an errno and sets *detail. */
int tc_world_trees(const tc_sandbox *sandbox, int *trees, int *detail) {
    *detail = -1;
    if (sandbox->view_count < 0 || sandbox->view_count > TC_VIEW_MOST) return E2BIG;
    for (int i = 0; i < sandbox->view_count; i++) trees[i] = -1;
    if (!sandbox->switch_ids) return 0;
    /* A user namespace that maps root to the app's id, for the idmapping only. */
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) return errno;
    pid_t holder = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL, NULL);
    if (holder == 0) {
        char byte;
        close(ready[1]);
        ssize_t ignored = read(ready[0], &byte, 1);
        (void)ignored;
        _exit(0);
    }
    close(ready[0]);
    int failure = holder < 0 ? errno : 0;
    int userns = -1;
    if (failure == 0) {
        char path[64], line[64];
        const struct { const char *file; unsigned int id; } maps[] = {{"uid_map", sandbox->app_uid}, {"gid_map", sandbox->app_gid}};
        for (int m = 0; failure == 0 && m < 2; m++) {
            char *end = put_text(line, "0 ");
            end = put_number(end, maps[m].id);
            end = put_text(end, " 1\n");
            proc_path(path, holder, maps[m].file);
            failure = write_file(path, line, (size_t)(end - line));
        }
        proc_path(path, holder, "ns/user");
        if (failure == 0 && (userns = open(path, O_RDONLY | O_CLOEXEC)) < 0) failure = errno;
    }
    close(ready[1]);
    if (holder > 0) while (waitpid(holder, NULL, 0) < 0 && errno == EINTR) {}
    for (int i = 0; failure == 0 && i < sandbox->view_count; i++) {
        const tc_view_entry *entry = &sandbox->view[i];
        if (entry->kind != TC_VIEW_READ && entry->kind != TC_VIEW_WRITE) continue;
        struct open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS};
        int source = (int)syscall(SYS_openat2, AT_FDCWD, entry->path, &how, sizeof how);
        if (source < 0) {
            if (errno != ENOENT) failure = errno, *detail = i;
            continue;
        }
        int tree = (int)syscall(SYS_open_tree, source, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
        close(source);
        if (tree < 0) {
            failure = errno, *detail = i;
            continue;
        }
        unsigned long long attributes = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (entry->kind == TC_VIEW_READ ? MOUNT_ATTR_RDONLY : 0);
        struct mount_attr set = {.attr_set = attributes | MOUNT_ATTR_IDMAP, .userns_fd = (unsigned long long)userns};
        if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &set, sizeof set) != 0) {
            /* A filesystem that cannot be idmapped (NFS): bound as it is. */
            struct mount_attr plain = {.attr_set = attributes};
            if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &plain, sizeof plain) != 0) {
                failure = errno, *detail = i;
                close(tree);
                continue;
            }
        }
        trees[i] = tree;
    }
    if (userns >= 0) close(userns);
    if (failure != 0) {
        for (int i = 0; i < sandbox->view_count; i++) {
            if (trees[i] >= 0) close(trees[i]);
            trees[i] = -1;
        }
    }
    return failure;
}

/* Writes a number to a /proc/sys file of the world's own user namespace. */
static int set_sysctl(const char *path, unsigned long long value) {
    char text[24];
    char *end = put_number(text, value);
    return write_file(path, text, (size_t)(end - text));
}

/* TC_VIEW_BASE followed by `path`, in `out` (PATH_MAX); 0 when too long. */
static int view_target(char *out, const char *path) {
    size_t base = sizeof TC_VIEW_BASE - 1, length = strlen(path);
    if (length == 0 || path[0] != '/' || base + length >= 4096) return 0;
    memcpy(out, TC_VIEW_BASE, base);
    memcpy(out + base, path, length + 1);
    return 1;
}

/* Makes the folders of `target` (a view target) down to, and with `last`, itself. */
static int make_folders(char *target, int last) {
    size_t base = sizeof TC_VIEW_BASE - 1;
    for (char *c = target + base + 1; *c; c++) {
        if (*c != '/') continue;
        *c = 0;
        int made = mkdir(target, 0755);
        *c = '/';
        if (made != 0 && errno != EEXIST) return errno;
    }
    if (last && mkdir(target, 0755) != 0 && errno != EEXIST) return errno;
    return 0;
}

/* A place to mount the file or folder open as `source` on: made where missing. */
static int make_mount_point(char *target, int source) {
    struct stat status;
    if (fstat(source, &status) != 0) return errno;
    int failure = make_folders(target, S_ISDIR(status.st_mode));
    if (failure != 0 || S_ISDIR(status.st_mode)) return failure;
    struct stat existing;
    if (fstatat(AT_FDCWD, target, &existing, AT_SYMLINK_NOFOLLOW) == 0) return 0;
    int file = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (file < 0) return errno;
    close(file);
    return 0;
}

/* A copy of the mount tree at `source`, with `attributes` set on all of it, mounted at `target`. */
static int bind_tree(int source, const char *target, unsigned long long attributes) {
    int tree = (int)syscall(SYS_open_tree, source, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
    if (tree < 0) return errno;
    struct mount_attr set = {.attr_set = attributes};
    int failure = 0;
    if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &set, sizeof set) != 0 ||
        syscall(SYS_move_mount, tree, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH) != 0) {
        failure = errno;
    }
    close(tree);
    return failure;
}

/* A tmpfs of `bytes` (and one inode per 4 KiB of them) at `target`, private to the app. */
static int mount_tmpfs(const char *target, unsigned long long bytes, const char *mode) {
    char options[96];
    char *end = put_number(put_text(options, "size="), bytes);
    end = put_number(put_text(end, ",nr_inodes="), bytes / 4096 + 64);
    end = put_text(put_text(end, ",mode="), mode);
    *end = 0;
    return mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, options) == 0 ? 0 : errno;
}

/* Mounts view entry `entry`, whose source (for binds) is open as `source` (-1: it does not exist). */
static int mount_entry(const tc_view_entry *entry, int source, char *target) {
    switch (entry->kind) {
    case TC_VIEW_SYSTEM: {
        struct stat status;
        if (lstat(entry->path, &status) == 0 && S_ISLNK(status.st_mode)) {
            char link[4096];
            ssize_t length = readlink(entry->path, link, sizeof link - 1);
            if (length < 0) return errno;
            link[length] = 0;
            int failure = make_folders(target, 0);
            return failure != 0 ? failure : (symlink(link, target) == 0 || errno == EEXIST ? 0 : errno);
        }
        if (source < 0) return 0;
        int failure = make_mount_point(target, source);
        return failure != 0 ? failure : bind_tree(source, target, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
    }
    case TC_VIEW_READ:
    case TC_VIEW_WRITE:
    case TC_VIEW_DEVICE: {
        if (source < 0) return 0;
        int failure = make_mount_point(target, source);
        if (failure != 0) return failure;
        unsigned long long attributes = MOUNT_ATTR_NOSUID;
        if (entry->kind != TC_VIEW_DEVICE) attributes |= MOUNT_ATTR_NODEV;
        if (entry->kind == TC_VIEW_READ) attributes |= MOUNT_ATTR_RDONLY;
        return bind_tree(source, target, attributes);
    }
    case TC_VIEW_TMPFS: {
        int failure = make_folders(target, 1);
        return failure != 0 ? failure : mount_tmpfs(target, entry->bytes, "0700");
    }
    case TC_VIEW_PROC: {
        int failure = make_folders(target, 1);
        if (failure != 0) return failure;
        return mount("proc", target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0 ? 0 : errno;
    }
    case TC_VIEW_FOLDER:
        return make_folders(target, 1);
    default:
        return EINVAL;
    }
}

/* Opens what a view entry binds, once, before anything is mounted: what is mounted is what was
   resolved. A granted path is the real path the plan found, so one with a symlink in it now was
   changed since, and is refused; a system folder may be reached through one (/lib64). */
static int open_source(const tc_view_entry *entry, int *fd) {
    *fd = -1;
    if (entry->kind != TC_VIEW_SYSTEM && entry->kind != TC_VIEW_READ && entry->kind != TC_VIEW_WRITE &&
        entry->kind != TC_VIEW_DEVICE) return 0;
    int follows = entry->kind == TC_VIEW_SYSTEM || entry->kind == TC_VIEW_DEVICE;
    struct open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = follows ? 0 : RESOLVE_NO_SYMLINKS};
    int opened = (int)syscall(SYS_openat2, AT_FDCWD, entry->path, &how, sizeof how);
    if (opened >= 0) {
        *fd = opened;
        return 0;
    }
    /* A system folder this machine lacks (/lib32), or a grant removed since: nothing to see. */
    return errno == ENOENT ? 0 : errno;
}

static void close_sources(int *sources, int count) {
    for (int i = 0; i < count; i++) {
        if (sources[i] >= 0) close(sources[i]);
    }
}

/* Brings the loopback interface of the world's own network namespace up. */
static int loopback_up(void) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    struct ifreq request;
    memset(&request, 0, sizeof request);
    memcpy(request.ifr_name, "lo", 3);
    int failure = 0;
    if (ioctl(fd, SIOCGIFFLAGS, &request) != 0) {
        failure = errno;
    } else {
        request.ifr_flags |= IFF_UP;
        if (ioctl(fd, SIOCSIFFLAGS, &request) != 0) failure = errno;
    }
    close(fd);
    return failure;
}

/* In the world's init, once its ids are mapped: takes the app's ids (`switch_ids`: it was root's
   process, whose ids are not mapped), builds the view and pivots into it. Returns 0, or an errno
   and sets *detail to the view entry that failed (-1: another step). */
int tc_world_build(const tc_sandbox *sandbox, const int *trees, int *detail) {
    *detail = -1;
    if (sandbox->view_count < 0 || sandbox->view_count > TC_VIEW_MOST) return E2BIG;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return errno;
    int sources[TC_VIEW_MOST];
    for (int i = 0; i < sandbox->view_count; i++) {
        int failure = trees[i] >= 0 ? 0 : open_source(&sandbox->view[i], &sources[i]);
        if (trees[i] >= 0) sources[i] = -1;
        if (failure != 0) {
            close_sources(sources, i);
            *detail = i;
            return failure;
        }
    }
    int failure = 0;
    /* Root's apps: the unprivileged ids mapped, and no group of root's. Capabilities in the world
       stay (root of the world is unmapped) until the app's exec. */
    if (sandbox->switch_ids &&
        (setgroups(0, NULL) != 0 || setresgid(sandbox->app_gid, sandbox->app_gid, sandbox->app_gid) != 0 ||
         setresuid(sandbox->app_uid, sandbox->app_uid, sandbox->app_uid) != 0)) {
        failure = errno;
    }
    /* No user namespace inside the world (the allow-list refuses them too). */
    if (failure == 0) failure = set_sysctl("/proc/sys/user/max_user_namespaces", 0);
    if (failure == 0) failure = mount_tmpfs(TC_VIEW_BASE, 1 << 20, "0755");
    char target[4096];
    for (int i = 0; failure == 0 && i < sandbox->view_count; i++) {
        if (!view_target(target, sandbox->view[i].path)) {
            failure = ENAMETOOLONG;
        } else if (trees[i] >= 0) {
            failure = make_mount_point(target, trees[i]);
            if (failure == 0 && syscall(SYS_move_mount, trees[i], "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH) != 0) failure = errno;
        } else {
            failure = mount_entry(&sandbox->view[i], sources[i], target);
        }
        if (failure != 0) *detail = i;
    }
    close_sources(sources, sandbox->view_count);
    if (failure != 0) return failure;
    /* A temporary folder elsewhere than in /tmp (TMPDIR=/var/tmp) is its /tmp too: programs
       that name /tmp find it. */
    struct stat status;
    for (int i = 0; i < sandbox->view_count; i++) {
        if (sandbox->view[i].kind != TC_VIEW_TMPFS || stat(TC_VIEW_BASE "/tmp", &status) == 0) continue;
        if (symlink(sandbox->view[i].path, TC_VIEW_BASE "/tmp") != 0) return errno;
    }
    /* /dev's links to the process's own descriptors, where /dev is in the view, and /dev/shm to
       its /tmp: POSIX shared memory and semaphores (Python's multiprocessing) are its own, and
       counted in its tmpfs's size. */
    if (stat(TC_VIEW_BASE "/dev", &status) == 0) {
        const char *links[][2] = {{"/proc/self/fd", TC_VIEW_BASE "/dev/fd"}, {"/proc/self/fd/0", TC_VIEW_BASE "/dev/stdin"},
                                  {"/proc/self/fd/1", TC_VIEW_BASE "/dev/stdout"}, {"/proc/self/fd/2", TC_VIEW_BASE "/dev/stderr"},
                                  {"/tmp", TC_VIEW_BASE "/dev/shm"}};
        for (unsigned i = 0; i < sizeof links / sizeof links[0]; i++) {
            if (symlink(links[i][0], links[i][1]) != 0 && errno != EEXIST) return errno;
        }
    }
    /* Nothing more is made in the skeleton: it is read-only, and the old root goes. */
    if (mount(NULL, TC_VIEW_BASE, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) return errno;
    if (chdir(TC_VIEW_BASE) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0 || chdir("/") != 0) {
        return errno;
    }
    return sandbox->host_network ? 0 : loopback_up();
}
