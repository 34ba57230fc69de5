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

/* The seccomp filter, compiled by libseccomp into classic BPF in the dashboard, so that the app's
   process only installs it (no allocation between fork and exec). Refused with EPERM: ptrace,
   process_vm_readv/writev, mount and its kin, unshare, setns, clone into new namespaces, pivot_root,
   chroot, keyctl and its kin, bpf, perf_event_open, kexec, module loading, reboot, personality,
   io_uring (which would make its own sockets past this filter), userfaultfd, open_by_handle_at;
   clone3 answers ENOSYS (its flags cannot be read), so the C library falls back to clone. Sockets:
   only a stream socketpair without `network`; with it, IPv4, IPv6 and netlink too (never a unix
   socket, which would reach servers on this machine that Landlock cannot see).
   Returns 0 and sets *program (malloc'd `struct sock_filter`s, kept for the process's life) and
   *length, or minus an errno. */
int tc_seccomp_program(int network, void **program, unsigned short *length);

/* What tc_spawn_app applies in the app's process before exec. */
typedef struct {
    /* PR_SET_NO_NEW_PRIVS: set-user-ID programs gain nothing. */
    int no_new_privileges;
    /* A ruleset from tc_landlock_ruleset, or -1; the app's own /proc/self is allowed to it there. */
    int landlock_ruleset;
    int landlock_abi;
    /* From tc_seccomp_program, or NULL. */
    const void *seccomp_program;
    unsigned short seccomp_length;
} tc_sandbox;

#endif
