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
#include <sys/prctl.h>
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

/* Applies the sandbox in the app's process: system calls only (async-signal-safe). Returns 0 or an errno. */
int tc_apply_sandbox(const tc_sandbox *sandbox) {
    if (sandbox->no_new_privileges && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    if (sandbox->landlock_ruleset >= 0) {
        /* Resolved here, /proc/self is this process's own folder, not the dashboard's. */
        int self = open("/proc/self", O_PATH | O_CLOEXEC);
        if (self < 0) return errno;
        int added = allow_open_path(sandbox->landlock_ruleset, self, TC_FS_READ_FILE | TC_FS_READ_DIR, sandbox->landlock_abi);
        close(self);
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

int tc_seccomp_program(int network, void **program, unsigned short *length) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (filter == NULL) return -ENOMEM;
    int failure = 0;
    /* No new privileges is set by tc_apply_sandbox itself, before Landlock. */
    ADD(seccomp_attr_set(filter, SCMP_FLTATR_CTL_NNP, 0));
    const int refused[] = {
        SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(mount), SCMP_SYS(umount2),
        SCMP_SYS(mount_setattr), SCMP_SYS(move_mount), SCMP_SYS(open_tree), SCMP_SYS(fsopen), SCMP_SYS(fsconfig),
        SCMP_SYS(fsmount), SCMP_SYS(fspick), SCMP_SYS(unshare), SCMP_SYS(setns), SCMP_SYS(pivot_root), SCMP_SYS(chroot),
        SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(bpf), SCMP_SYS(perf_event_open),
        SCMP_SYS(kexec_load), SCMP_SYS(kexec_file_load), SCMP_SYS(init_module), SCMP_SYS(finit_module),
        SCMP_SYS(delete_module), SCMP_SYS(reboot), SCMP_SYS(personality), SCMP_SYS(io_uring_setup),
        SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register), SCMP_SYS(userfaultfd), SCMP_SYS(open_by_handle_at),
        SCMP_SYS(name_to_handle_at), SCMP_SYS(fanotify_init), SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(acct),
        SCMP_SYS(quotactl), SCMP_SYS(syslog), SCMP_SYS(lookup_dcookie), SCMP_SYS(vhangup),
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), refused[i], 0));
    }
    ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0));
    const unsigned long long namespaces[] = {CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWPID, CLONE_NEWIPC,
                                             CLONE_NEWUTS, CLONE_NEWCGROUP, CLONE_NEWTIME};
    for (size_t i = 0; i < sizeof namespaces / sizeof namespaces[0]; i++) {
        ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                             SCMP_A0(SCMP_CMP_MASKED_EQ, namespaces[i], namespaces[i])));
    }
    /* Sockets: one rule per address family refused (a rule cannot test one argument twice). */
    for (int family = 0; family < AF_MAX; family++) {
        int allowed = network && (family == AF_INET || family == AF_INET6 || family == AF_NETLINK);
        if (!allowed) ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, family)));
        if (family != AF_UNIX) {
            ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socketpair), 1, SCMP_A0(SCMP_CMP_EQ, family)));
        }
    }
    /* A datagram pair could still sendto() any socket file (the journal, /dev/log): stream pairs only. */
    const int datagrams[] = {SOCK_DGRAM, SOCK_RAW, SOCK_RDM, SOCK_PACKET};
    for (size_t i = 0; i < sizeof datagrams / sizeof datagrams[0]; i++) {
        ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socketpair), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xF, datagrams[i])));
    }
    ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_GE, AF_MAX)));
    ADD(seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socketpair), 1, SCMP_A0(SCMP_CMP_GE, AF_MAX)));
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
