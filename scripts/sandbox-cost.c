/* The sandbox's parts, timed on their own (issue 37), over CAppProcess's own sandbox.c.
   `sandbox-cost compile`: libseccomp's compile of both filters and a Landlock ruleset with the
   system's rules, in ms. `sandbox-cost MODE PROGRAM ARG...`: exec PROGRAM with no-new-privileges
   and, by MODE's bits, 1 the seccomp filter, 2 Landlock (the system, /tmp, the given program's
   folder), so that hyperfine compares a program's start with and without them. */
#include "CAppSandbox.h"
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int tc_apply_sandbox(const tc_sandbox *sandbox);

static double now_ms(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec * 1e3 + time.tv_nsec / 1e6;
}

static const char *system_folders[] = {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/dev/null", "/dev/zero",
                                       "/dev/random", "/dev/urandom", "/tmp"};
#define READ_EXECUTE (TC_FS_EXECUTE | TC_FS_READ_FILE | TC_FS_READ_DIR)

static int ruleset(const char *program) {
    int abi = tc_landlock_abi();
    int fd = tc_landlock_ruleset(abi);
    for (size_t i = 0; i < sizeof system_folders / sizeof system_folders[0]; i++) {
        tc_landlock_allow_path(fd, system_folders[i], READ_EXECUTE | TC_FS_WRITE_FILE, abi, 1);
    }
    if (program != NULL) {
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", program);
        tc_landlock_allow_path(fd, dirname(dirname(copy)), READ_EXECUTE, abi, 1);
    }
    return fd;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "compile") == 0) {
        void *program;
        unsigned short length;
        double start = now_ms();
        tc_seccomp_program(0, &program, &length);
        tc_seccomp_program(1, &program, &length);
        double compiled = now_ms();
        close(ruleset(NULL));
        printf("seccomp filters (both) %.3f ms, %u instructions; Landlock ruleset with %zu rules %.3f ms\n", compiled - start,
               length, sizeof system_folders / sizeof system_folders[0], now_ms() - compiled);
        return 0;
    }
    if (argc < 3) return 2;
    int mode = atoi(argv[1]);
    tc_sandbox sandbox = {.no_new_privileges = 1, .landlock_ruleset = -1};
    if (mode & 1) {
        void *program;
        tc_seccomp_program(0, &program, &sandbox.seccomp_length);
        sandbox.seccomp_program = program;
    }
    if (mode & 2) {
        sandbox.landlock_abi = tc_landlock_abi();
        sandbox.landlock_ruleset = ruleset(argv[2]);
    }
    if (tc_apply_sandbox(&sandbox) != 0) return 1;
    execv(argv[2], argv + 2);
    return 127;
}
