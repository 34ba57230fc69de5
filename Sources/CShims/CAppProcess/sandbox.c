#define _GNU_SOURCE
#include "CAppSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <linux/sched.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

/* include/uapi/linux/landlock.h, as of ABI 7. */
struct tc_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
};
struct tc_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));
struct tc_landlock_net_port_attr {
    uint64_t allowed_access;
    uint64_t port;
};
#define TC_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define TC_LANDLOCK_RULE_PATH_BENEATH 1
#define TC_LANDLOCK_RULE_NET_PORT 2
#define TC_NET_BIND_TCP (1ULL << 0)
#define TC_NET_CONNECT_TCP (1ULL << 1)
#define TC_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define TC_SCOPE_SIGNAL (1ULL << 1)
#define TC_FS_FILE_RIGHTS (TC_FS_EXECUTE | TC_FS_WRITE_FILE | TC_FS_READ_FILE | TC_FS_TRUNCATE | TC_FS_IOCTL_DEV)

int tc_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, TC_LANDLOCK_CREATE_RULESET_VERSION);
    if (abi > 0) return (int)abi;
    return errno == EOPNOTSUPP ? TC_LANDLOCK_DISABLED : TC_LANDLOCK_MISSING;
}

/* Every filesystem right `abi` knows. */
static uint64_t fs_rights(int abi) {
    uint64_t rights = (TC_FS_MAKE_SYM << 1) - 1;
    if (abi >= 2) rights |= TC_FS_REFER;
    if (abi >= 3) rights |= TC_FS_TRUNCATE;
    if (abi >= 5) rights |= TC_FS_IOCTL_DEV;
    return rights;
}

int tc_landlock_ruleset(int abi) {
    struct tc_landlock_ruleset_attr attributes = {.handled_access_fs = fs_rights(abi)};
    size_t size = sizeof attributes.handled_access_fs;
    if (abi >= 4) {
        attributes.handled_access_net = TC_NET_BIND_TCP | TC_NET_CONNECT_TCP;
        size += sizeof attributes.handled_access_net;
    }
    if (abi >= 6) {
        attributes.scoped = TC_SCOPE_ABSTRACT_UNIX_SOCKET | TC_SCOPE_SIGNAL;
        size += sizeof attributes.scoped;
    }
    long fd = syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    return fd < 0 ? -errno : (int)fd;
}

/* Adds the rule for the path open as `fd`; the folder rights are dropped for anything else. */
static int allow_open_path(int ruleset, int fd, uint64_t access, int abi) {
    struct stat status;
    if (fstat(fd, &status) != 0) return errno;
    struct tc_landlock_path_beneath_attr rule = {
        .allowed_access = access & fs_rights(abi) & (S_ISDIR(status.st_mode) ? ~0ULL : TC_FS_FILE_RIGHTS),
        .parent_fd = fd,
    };
    if (rule.allowed_access == 0) return 0;
    return syscall(SYS_landlock_add_rule, ruleset, TC_LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0 ? 0 : errno;
}

int tc_landlock_allow_path(int ruleset, const char *path, unsigned long long access, int abi, int follow) {
    struct open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = follow ? 0 : RESOLVE_NO_SYMLINKS};
    int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    if (fd < 0) return errno;
    int result = allow_open_path(ruleset, fd, access, abi);
    close(fd);
    return result;
}

int tc_landlock_allow_connect(int ruleset, unsigned long long port) {
    struct tc_landlock_net_port_attr rule = {.allowed_access = TC_NET_CONNECT_TCP, .port = port};
    return syscall(SYS_landlock_add_rule, ruleset, TC_LANDLOCK_RULE_NET_PORT, &rule, 0) == 0 ? 0 : errno;
}

/* Write, create, remove and rename beneath (Landlock), for the app's own tmpfs folders. */
#define TC_FS_OWN_FOLDER (TC_FS_READ_FILE | TC_FS_READ_DIR | TC_FS_WRITE_FILE | TC_FS_REMOVE_DIR | TC_FS_REMOVE_FILE | \
                          TC_FS_MAKE_DIR | TC_FS_MAKE_REG | TC_FS_MAKE_FIFO | TC_FS_MAKE_SYM | TC_FS_REFER | TC_FS_TRUNCATE)

static int allow_resolved(int ruleset, const char *path, uint64_t access, int abi) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return errno;
    int added = allow_open_path(ruleset, fd, access, abi);
    close(fd);
    return added;
}

/* Applies the sandbox in the app's process (in its world, once built): system calls only
   (async-signal-safe). Returns 0 or an errno. */
int tc_apply_sandbox(const tc_sandbox *sandbox) {
    if (sandbox->no_new_privileges && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    if (sandbox->landlock_ruleset >= 0) {
        /* Resolved here, /proc/self is this process's own folder, not the dashboard's; a tmpfs of
           its world is a folder the dashboard never saw. */
        int added = allow_resolved(sandbox->landlock_ruleset, "/proc/self", TC_FS_READ_FILE | TC_FS_READ_DIR, sandbox->landlock_abi);
        for (int i = 0; added == 0 && sandbox->world && i < sandbox->view_count; i++) {
            if (sandbox->view[i].kind == TC_VIEW_TMPFS) {
                added = allow_resolved(sandbox->landlock_ruleset, sandbox->view[i].path, TC_FS_OWN_FOLDER, sandbox->landlock_abi);
            }
        }
        if (added != 0) return added;
        if (syscall(SYS_landlock_restrict_self, sandbox->landlock_ruleset, 0) != 0) return errno;
        close(sandbox->landlock_ruleset);
    }
    if (sandbox->seccomp_program != NULL) {
        struct sock_fprog program = {.len = sandbox->seccomp_length, .filter = (struct sock_filter *)sandbox->seccomp_program};
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) return errno;
    }
    return 0;
}

/* Keeps the first failure of the libseccomp calls that build a filter. */
#define ADD(call) do { int added_ = (call); if (added_ < 0 && failure == 0) failure = added_; } while (0)

/* The system calls every app may make as it likes: what interpreters (Python, Node.js, Ruby,
   Perl, the shells) and the system's programs use. Names this architecture or libseccomp does
   not know are skipped. */
static const char *const allowed_calls[] = {
    /* files and descriptors */
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2", "close", "close_range", "lseek", "_llseek", "stat", "fstat", "lstat", "newfstatat", "fstatat64",
    "stat64", "fstat64", "lstat64", "statx", "statfs", "fstatfs", "statfs64", "fstatfs64", "access", "faccessat",
    "faccessat2", "readlink", "readlinkat", "getdents", "getdents64", "rmdir", "unlink", "unlinkat",
    "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "chdir", "fchdir", "getcwd", "truncate",
    "ftruncate", "fallocate", "fsync", "fdatasync", "sync_file_range", "syncfs", "dup", "dup2", "dup3", "fcntl", "fcntl64",
    "flock", "ioctl", "pipe", "pipe2", "sendfile", "sendfile64", "copy_file_range", "splice", "tee", "vmsplice", "readahead",
    "fadvise64", "fadvise64_64", "umask", "chown", "fchown", "lchown",
    "fchownat", "chown32", "fchown32", "lchown32", "utime", "utimes", "utimensat", "futimesat", "getxattr", "lgetxattr",
    "fgetxattr", "listxattr", "llistxattr", "flistxattr", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
    "lremovexattr", "fremovexattr",
    /* waiting for descriptors and events */
    "poll", "ppoll", "select", "_newselect", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait",
    "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2", "signalfd", "signalfd4", "timerfd_create", "timerfd_settime",
    "timerfd_gettime",
    /* memory */
    "brk", "mmap", "mmap2", "munmap", "mremap", "mprotect", "madvise", "msync", "mincore", "membarrier", "mlock", "mlock2",
    "munlock", "mlockall", "munlockall", "get_mempolicy", "set_mempolicy", "mbind", "pkey_alloc", "pkey_free",
    "pkey_mprotect", "map_shadow_stack",
    /* processes and threads of its own */
    "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4", "waitid", "kill", "tkill", "tgkill",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigsuspend", "rt_sigpending", "rt_sigtimedwait",
    "rt_sigqueueinfo", "rt_tgsigqueueinfo", "sigaltstack", "sigreturn", "getpid", "getppid", "gettid", "getuid", "geteuid",
    "getgid", "getegid", "getuid32", "geteuid32", "getgid32", "getegid32", "getresuid", "getresgid", "getresuid32",
    "getresgid32", "getgroups", "getgroups32", "setsid", "setpgid", "getpgid", "getpgrp", "getsid", "prctl", "arch_prctl",
    "set_tid_address", "set_robust_list", "get_robust_list", "futex", "futex_time64", "futex_waitv", "rseq", "sched_yield",
    "sched_getaffinity", "sched_getparam", "sched_getscheduler", "sched_getattr", "sched_get_priority_max",
    "sched_get_priority_min", "sched_rr_get_interval", "getpriority", "getrlimit", "ugetrlimit", "getrusage", "times",
    "uname", "sysinfo", "capget", "getrandom", "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "seccomp", "restart_syscall",
    "pause", "getcpu", "ioprio_get",
    /* time */
    "clock_gettime", "clock_gettime64", "clock_getres", "clock_getres_time64", "clock_nanosleep", "clock_nanosleep_time64",
    "gettimeofday", "time", "nanosleep", "alarm", "getitimer", "setitimer", "timer_create", "timer_settime",
    "timer_settime64", "timer_gettime", "timer_gettime64", "timer_getoverrun", "timer_delete",
    /* sockets (socket and socketpair themselves are ruled below) */
    "connect", "accept", "accept4", "bind", "getsockname", "getpeername", "recvfrom", "recvmsg", "recvmmsg",
    "recvmmsg_time64", "shutdown", "setsockopt", "getsockopt",
};

/* Allows `call` only when its first argument is 0 (the caller itself), or with `which` as its
   first argument and 0 as its second (setpriority, ioprio_set). */
static int allow_on_self(scmp_filter_ctx filter, const char *call, int which) {
    int number = seccomp_syscall_resolve_name(call);
    if (number == __NR_SCMP_ERROR) return 0;
    if (which < 0) return seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 1, SCMP_A0(SCMP_CMP_EQ, 0));
    return seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 2, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)which), SCMP_A1(SCMP_CMP_EQ, 0));
}

static int allow_socket(scmp_filter_ctx filter, int family, int type, int protocol) {
    return seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(socket), 3, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)family),
                            SCMP_A1(SCMP_CMP_MASKED_EQ, 0xF, (scmp_datum_t)type), SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)protocol));
}

int tc_seccomp_program(int kind, void **program, unsigned short *length) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (filter == NULL) return -ENOMEM;
    int failure = 0;
    /* No new privileges is set by tc_apply_sandbox itself, before Landlock. */
    ADD(seccomp_attr_set(filter, SCMP_FLTATR_CTL_NNP, 0));
    for (size_t i = 0; i < sizeof allowed_calls / sizeof allowed_calls[0]; i++) {
        int number = seccomp_syscall_resolve_name(allowed_calls[i]);
        if (number != __NR_SCMP_ERROR) ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 0));
    }
    ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0));
    const scmp_datum_t namespaces = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS |
                                    CLONE_NEWCGROUP | CLONE_NEWTIME;
    ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, namespaces, 0)));
    /* On itself only: another process's limits, priority, CPUs or I/O class are not the app's. */
    const char *self_calls[] = {"prlimit64", "setrlimit", "sched_setaffinity", "sched_setscheduler", "sched_setparam",
                                "sched_setattr"};
    for (size_t i = 0; i < sizeof self_calls / sizeof self_calls[0]; i++) ADD(allow_on_self(filter, self_calls[i], -1));
    ADD(allow_on_self(filter, "setpriority", PRIO_PROCESS));
    ADD(allow_on_self(filter, "ioprio_set", 1 /* IOPRIO_WHO_PROCESS */));
    /* Files and folders, but never a set-user-ID or set-group-ID mode: for root's apps what they
       make in a granted folder is root's on disk (idmapped), and a set-user-ID copy of a shell
       there would make anyone who runs it root; for a user's, anyone who runs it that user. The
       mode argument's place in each call. openat2's mode is in a structure seccomp cannot read:
       ENOSYS, and the C library falls back to openat. */
    const struct { const char *call; unsigned int mode_argument; } modes[] = {
        {"open", 2}, {"openat", 3}, {"creat", 1}, {"mkdir", 1}, {"mkdirat", 2},
        {"chmod", 1}, {"fchmod", 1}, {"fchmodat", 2}, {"fchmodat2", 2},
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        int number = seccomp_syscall_resolve_name(modes[i].call);
        if (number == __NR_SCMP_ERROR) continue;
        struct scmp_arg_cmp plain = {.arg = modes[i].mode_argument, .op = SCMP_CMP_MASKED_EQ, .datum_a = S_ISUID | S_ISGID, .datum_b = 0};
        ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 1, plain));
    }
    ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0));
    /* inotify on the system's folders, which are the host's, would tell which files and programs
       the host opens as it does (sudo, ssh): ENOSYS, and programs fall back to polling (tail -f). */
    ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(inotify_init), 0));
    ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(inotify_init1), 0));
    /* FIFOs only: mknod makes no device without privileges, but nothing else is needed. */
    ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(mknod), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, S_IFMT, S_IFIFO)));
    ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(mknodat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, S_IFMT, S_IFIFO)));
    /* A stream pair always (a pipe both ways); a datagram pair could sendto() any socket file. */
    ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(socketpair), 2, SCMP_A0(SCMP_CMP_EQ, AF_UNIX),
                         SCMP_A1(SCMP_CMP_MASKED_EQ, 0xF, SOCK_STREAM)));
    /* Sending, but never a TCP Fast Open connect, which Landlock's connect check does not see. */
    ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(sendto), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, 0)));
    ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(sendmsg), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, 0)));
    ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(sendmmsg), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, 0)));
    if (kind & TC_FILTER_UNIX) {
        for (int type = SOCK_STREAM; type <= SOCK_SEQPACKET; type++) {
            if (type == SOCK_STREAM || type == SOCK_DGRAM || type == SOCK_SEQPACKET) ADD(allow_socket(filter, AF_UNIX, type, 0));
        }
    }
    if (kind & TC_FILTER_NETWORK) {
        const int families[] = {AF_INET, AF_INET6};
        for (int i = 0; i < 2; i++) {
            ADD(allow_socket(filter, families[i], SOCK_STREAM, 0));
            ADD(allow_socket(filter, families[i], SOCK_STREAM, IPPROTO_TCP));
            ADD(allow_socket(filter, families[i], SOCK_DGRAM, 0));
            ADD(allow_socket(filter, families[i], SOCK_DGRAM, IPPROTO_UDP));
        }
        /* Name lookups ask the kernel for the machine's addresses (getaddrinfo's AI_ADDRCONFIG). */
        ADD(allow_socket(filter, AF_NETLINK, SOCK_RAW, 0 /* NETLINK_ROUTE */));
        ADD(allow_socket(filter, AF_NETLINK, SOCK_DGRAM, 0));
    } else {
        /* In its own network namespace, a listening socket is reachable from its world alone. */
        ADD(seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(listen), 0));
    }
    if (failure != 0) {
        seccomp_release(filter);
        return failure;
    }
    /* libseccomp 2.5 exports to a descriptor only: a memory file, read back. */
    int file = memfd_create("tc-seccomp", MFD_CLOEXEC);
    if (file < 0) {
        seccomp_release(filter);
        return -errno;
    }
    int exported = seccomp_export_bpf(filter, file);
    seccomp_release(filter);
    off_t size = lseek(file, 0, SEEK_END);
    if (exported < 0 || size <= 0 || size % sizeof(struct sock_filter) != 0 || size / sizeof(struct sock_filter) > BPF_MAXINSNS) {
        close(file);
        return exported < 0 ? exported : -EINVAL;
    }
    void *instructions = malloc((size_t)size);
    ssize_t got = instructions == NULL ? -1 : pread(file, instructions, (size_t)size, 0);
    close(file);
    if (got != size) {
        free(instructions);
        return -EIO;
    }
    *program = instructions;
    *length = (unsigned short)(size / sizeof(struct sock_filter));
    return 0;
}
