#ifndef CAPPSANDBOX_H
#define CAPPSANDBOX_H

/* The kernel's containment of a micro-app: Landlock (files, TCP ports, signals and abstract unix
   sockets) and a seccomp filter (the system calls no micro-app needs, and sockets), both prepared
   by the dashboard and applied by tc_spawn_app in the app's own process, between fork and exec.

   Debian 12's headers stop at Landlock ABI 2: the rights, rule and attribute of later ABIs are
   defined here as the kernel's UAPI (include/uapi/linux/landlock.h) has them. */

#include <stddef.h>

/* Landlock's filesystem rights (ABI 1 unless said). */
#define TC_FS_EXECUTE (1ULL << 0)
#define TC_FS_WRITE_FILE (1ULL << 1)
#define TC_FS_READ_FILE (1ULL << 2)
#define TC_FS_READ_DIR (1ULL << 3)
#define TC_FS_REMOVE_DIR (1ULL << 4)
#define TC_FS_REMOVE_FILE (1ULL << 5)
#define TC_FS_MAKE_CHAR (1ULL << 6)
#define TC_FS_MAKE_DIR (1ULL << 7)
#define TC_FS_MAKE_REG (1ULL << 8)
#define TC_FS_MAKE_SOCK (1ULL << 9)
#define TC_FS_MAKE_FIFO (1ULL << 10)
#define TC_FS_MAKE_BLOCK (1ULL << 11)
#define TC_FS_MAKE_SYM (1ULL << 12)
#define TC_FS_REFER (1ULL << 13)     /* ABI 2 */
#define TC_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define TC_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */

/* Why tc_landlock_abi found no Landlock. */
#define TC_LANDLOCK_MISSING (-1)  /* the kernel has none (ENOSYS) */
#define TC_LANDLOCK_DISABLED (-2) /* built in, but not enabled at boot (EOPNOTSUPP) */

/* The Landlock ABI this kernel offers (1, 2, … 7), or TC_LANDLOCK_MISSING / TC_LANDLOCK_DISABLED. */
int tc_landlock_abi(void);

/* A ruleset handling every right `abi` knows: files, TCP bind and connect (ABI 4), signals and
   abstract unix sockets scoped to the sandbox (ABI 6). Nothing is allowed until a rule says so.
   Returns its descriptor (close-on-exec), or minus an errno. */
int tc_landlock_ruleset(int abi);

/* Allows `access` beneath `path` (a folder) or on it (a file: the folder rights are dropped).
   With `follow` 0 the path must have no symlink in it (ELOOP): a real path checked earlier cannot
   have been turned into a link to elsewhere since. Returns 0 or an errno (ENOENT when it does not
   exist). */
int tc_landlock_allow_path(int ruleset, const char *path, unsigned long long access, int abi, int follow);

/* Allows TCP connect to `port` (ABI 4). Returns 0 or an errno. */
int tc_landlock_allow_connect(int ruleset, unsigned long long port);

/* Which seccomp filter (tc_seccomp_program's `kind`, bits). */
#define TC_FILTER_NETWORK 1 /* the host's network, for a port grant: IPv4 and IPv6 TCP and UDP, no listen */
#define TC_FILTER_UNIX 2    /* unix sockets: only in a world of its own, where every socket file it can name is its own */

/* The seccomp filter, compiled by libseccomp into classic BPF in the dashboard, so that the app's
   process only installs it (no allocation between fork and exec). An allow-list: every system
   call not named is refused with EPERM (clone3 and openat2 answer ENOSYS, their flags cannot be
   read, so the C library falls back to clone and openat; inotify answers ENOSYS too, and programs
   poll). What it allows is what interpreters and the system's programs use; calls that act on a
   process act on the caller only (prlimit64, setpriority, sched_setaffinity, sched_setscheduler,
   sched_setparam, ioprio_set with pid 0), clone makes no namespace, no file or folder is made or
   changed set-user-ID or set-group-ID, and none of ptrace, mount and its kin, unshare, setns, keyctl, bpf, perf_event_open,
   io_uring, userfaultfd, memfd_create, System V IPC, POSIX message queues, module loading,
   fanotify, open_by_handle_at is there. Sockets: unix ones (stream pairs always; sockets with
   TC_FILTER_UNIX); with TC_FILTER_NETWORK, IPv4 and IPv6 TCP and UDP (no MPTCP, no raw) and
   route netlink, no listen(), and no TCP Fast Open send (which connects past Landlock's check).
   Returns 0 and sets *program (malloc'd `struct sock_filter`s, kept for the process's life) and
   *length, or minus an errno. */
int tc_seccomp_program(int kind, void **program, unsigned short *length);

/* One piece of an app's world (tc_sandbox.view), at `path`: the same path inside as outside, so
   that what the user granted is where they named it. */
typedef struct {
    int kind;                 /* TC_VIEW_* */
    const char *path;
    unsigned long long bytes; /* TC_VIEW_TMPFS: its size */
} tc_view_entry;

#define TC_VIEW_SYSTEM 1 /* a system folder, read-only, followed through symlinks; a symlink itself is made again (/bin -> usr/bin) */
#define TC_VIEW_READ 2   /* bound read-only; refused if its path has a symlink in it */
#define TC_VIEW_WRITE 3  /* bound read-write; refused if its path has a symlink in it */
#define TC_VIEW_DEVICE 4 /* a device node, bound as it is (/dev/null) */
#define TC_VIEW_TMPFS 5  /* a new tmpfs of `bytes`, the app's alone, gone with its world */
#define TC_VIEW_PROC 6   /* the /proc of its own PID namespace */
#define TC_VIEW_FOLDER 7 /* an empty folder, made where it is missing */
#define TC_VIEW_MOST 256 /* entries a view may have */

/* Whether this process may give an app a world of its own: 0 when a child could enter new user,
   mount, PID, IPC, UTS, network and cgroup namespaces, else the errno the kernel answered. */
int tc_world_probe(void);

/* Whether this process may give its apps ids of their own: root with CAP_SETUID, CAP_SETGID and
   CAP_SYS_ADMIN (which the idmapped folders need). Root without them (setpriv, a container with
   capabilities dropped) can map no id at all: its own is root, which takes CAP_SETFCAP. */
int tc_may_switch_ids(void);

/* What tc_spawn_app applies to the app. */
typedef struct {
    /* PR_SET_NO_NEW_PRIVS: set-user-ID programs gain nothing. */
    int no_new_privileges;
    /* A ruleset from tc_landlock_ruleset, or -1; the app's own /proc/self and its tmpfs folders are
       allowed to it there. */
    int landlock_ruleset;
    int landlock_abi;
    /* From tc_seccomp_program, or NULL. */
    const void *seccomp_program;
    unsigned short seccomp_length;
    /* Nonzero: the app's process tree gets a world of its own. Namespaces (user, mount, PID, IPC,
       UTS, cgroup, and network unless `host_network`), a filesystem made of `view` and nothing
       else (built on a read-only tmpfs, pivoted into), run as `app_uid`/`app_gid` with no
       capability: the user's own ids, or an unprivileged one for root's apps. Its first process
       is an init of the keeper's: when it ends, the kernel ends every process in the world. */
    int world;
    /* Nonzero (from tc_may_switch_ids): `app_uid` and `app_gid` are not the dashboard's; they are
       mapped with setgroups allowed, and the user's folders are idmapped to them. */
    int switch_ids;
    int host_network;
    const tc_view_entry *view;
    int view_count;
    unsigned int app_uid;
    unsigned int app_gid;
} tc_sandbox;

#endif
