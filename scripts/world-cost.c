/* An app's start through CAppProcess's tc_spawn_app, timed from the call to the app's first byte
   of output (issue 51: what a world of its own costs). Built by scripts/bench-world against this
   checkout's shim and against an older commit's (before namespaces: no TC_SPAWN_VIEW), so that
   both are measured in one run. `world-cost RUNS PROGRAM ARG...` prints the median in ms. Each
   start gets Landlock (the system's folders, /tmp, /dev/null, the program's installation) and
   the seccomp filter, as an app of the dashboard does, and, where the shim has it, its world. */
#define _GNU_SOURCE
#include "CAppProcess.h"
#include "CAppSandbox.h"
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec * 1e3 + time.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static const char *system_folders[] = {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc"};
static const char *devices[] = {"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"};

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int runs = atoi(argv[1]);
    char *const *command = argv + 2;
    char installation[4096];
    snprintf(installation, sizeof installation, "%s", command[0]);
    dirname(dirname(installation));
    int abi = tc_landlock_abi();
#ifdef TC_SPAWN_VIEW
    tc_view_entry view[16];
    int count = 0;
    view[count++] = (tc_view_entry){TC_VIEW_PROC, "/proc", 0};
    for (size_t i = 0; i < sizeof system_folders / sizeof system_folders[0]; i++) view[count++] = (tc_view_entry){TC_VIEW_SYSTEM, system_folders[i], 0};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) view[count++] = (tc_view_entry){TC_VIEW_DEVICE, devices[i], 0};
    view[count++] = (tc_view_entry){TC_VIEW_TMPFS, "/tmp", 64 << 20};
    if (strncmp(installation, "/usr", 4) != 0) view[count++] = (tc_view_entry){TC_VIEW_READ, installation, 0};
    void *program;
    unsigned short length;
    if (tc_seccomp_program(TC_FILTER_UNIX, &program, &length) != 0) return 1;
#else
    void *program;
    unsigned short length;
    if (tc_seccomp_program(0, &program, &length) != 0) return 1;
#endif
    double *times = calloc((size_t)runs, sizeof *times);
    for (int run = 0; run < runs; run++) {
        int ruleset = tc_landlock_ruleset(abi);
        for (size_t i = 0; i < sizeof system_folders / sizeof system_folders[0]; i++) {
            tc_landlock_allow_path(ruleset, system_folders[i], TC_FS_EXECUTE | TC_FS_READ_FILE | TC_FS_READ_DIR, abi, 1);
        }
        for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
            tc_landlock_allow_path(ruleset, devices[i], TC_FS_READ_FILE | TC_FS_WRITE_FILE, abi, 1);
        }
        tc_landlock_allow_path(ruleset, "/tmp", TC_FS_READ_FILE | TC_FS_READ_DIR | TC_FS_WRITE_FILE, abi, 1);
        tc_landlock_allow_path(ruleset, installation, TC_FS_EXECUTE | TC_FS_READ_FILE | TC_FS_READ_DIR, abi, 1);
#ifdef TC_SPAWN_VIEW
        tc_sandbox sandbox = {.no_new_privileges = 1, .landlock_ruleset = ruleset, .landlock_abi = abi, .seccomp_program = program,
                              .seccomp_length = length, .world = 1, .view = view, .view_count = count,
                              .app_uid = geteuid() == 0 ? 65534 : getuid(), .app_gid = geteuid() == 0 ? 65534 : getgid(),
                              .inotify_instances = 16, .inotify_watches = 8192};
#else
        tc_sandbox sandbox = {.no_new_privileges = 1, .landlock_ruleset = ruleset, .landlock_abi = abi, .seccomp_program = program,
                              .seccomp_length = length};
#endif
        tc_app_limits limits = {.data_bytes = 512 << 20, .open_files = 64, .processes = 256, .file_bytes = 256 << 20};
        char *environment[] = {"PATH=/usr/bin:/bin", "TMPDIR=/tmp", "HOME=/", NULL};
        int output[2];
        if (tc_pipe(output) != 0) return 1;
        pid_t keeper, app;
        int stage;
        double start = now_ms();
#ifdef TC_SPAWN_VIEW
        int detail;
        int failed = tc_spawn_app(command[0], command, environment, "/", 0, output[1], 2, limits, &sandbox, &keeper, &app, &stage, &detail);
#else
        int failed = tc_spawn_app(command[0], command, environment, "/", 0, output[1], 2, limits, &sandbox, &keeper, &app, &stage);
#endif
        close(output[1]);
        close(ruleset);
        if (failed != 0) {
            fprintf(stderr, "world-cost: the start failed at step %d: %s\n", stage, strerror(failed));
            return 1;
        }
        char byte;
        if (read(output[0], &byte, 1) != 1) return 1;
        times[run] = now_ms() - start;
        char rest[4096];
        while (read(output[0], rest, sizeof rest) > 0) {}
        close(output[0]);
        tc_await_exit(keeper);
        tc_reap_app(keeper);
    }
    qsort(times, (size_t)runs, sizeof *times, compare);
    printf("%.2f\n", times[runs / 2]);
    return 0;
}
