#define _GNU_SOURCE
#include "CAppProcess.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reports the failed step and errno to the parent through the status pipe, then exits. */
static void child_fail(int status_fd, int stage) {
    int report[2] = {stage, errno};
    ssize_t ignored = write(status_fd, report, sizeof report);
    (void)ignored;
    _exit(127);
}

static int set_limit(int resource, unsigned long long value) {
    if (value == 0) return 0;
    struct rlimit limit = {value, value};
    struct rlimit current;
    if (getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY && current.rlim_max < value) {
        limit.rlim_cur = limit.rlim_max = current.rlim_max; /* never ask for more than allowed */
    }
    return setrlimit(resource, &limit);
}

/* Closes every descriptor from `first` up but `keep`. */
static void close_from(int first, int keep) {
#ifdef SYS_close_range
    if ((keep == first || syscall(SYS_close_range, (unsigned)first, (unsigned)keep - 1, 0) == 0) &&
        syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0) == 0) return;
#endif
    struct rlimit limit;
    long last = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? (long)limit.rlim_cur : 4096;
    if (last > 65536) last = 65536;
    for (long fd = first; fd < last; fd++) {
        if (fd != keep) close((int)fd);
    }
}

int tc_spawn_app(const char *path, char *const argv[], char *const envp[], const char *directory,
                 int stdin_fd, int stdout_fd, int stderr_fd, tc_app_limits limits,
                 pid_t *pid, int *stage) {
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0) {
        *stage = TC_SPAWN_FORK;
        return errno;
    }
    pid_t parent = getpid();
    sigset_t all, previous;
    sigfillset(&all);
    /* No handler of the dashboard may run in the child between fork and exec. */
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t child = fork();
    if (child == 0) {
        close(status_pipe[0]);
        int report = status_pipe[1];
        struct sigaction standard;
        memset(&standard, 0, sizeof standard);
        standard.sa_handler = SIG_DFL;
        for (int signal = 1; signal < NSIG; signal++) sigaction(signal, &standard, NULL);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
        if (setsid() < 0) child_fail(report, TC_SPAWN_SESSION);
        /* Move the streams above 2 first, so that one dup2 cannot close another's source. */
        int in = fcntl(stdin_fd, F_DUPFD_CLOEXEC, 3), out = fcntl(stdout_fd, F_DUPFD_CLOEXEC, 3),
            err = fcntl(stderr_fd, F_DUPFD_CLOEXEC, 3);
        if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
            child_fail(report, TC_SPAWN_STREAMS);
        }
        close_from(3, report);
        if (directory && chdir(directory) != 0) child_fail(report, TC_SPAWN_DIRECTORY);
        struct rlimit no_core = {0, 0};
        if (setrlimit(RLIMIT_CORE, &no_core) != 0 || set_limit(RLIMIT_DATA, limits.data_bytes) != 0 ||
            set_limit(RLIMIT_NOFILE, limits.open_files) != 0 || set_limit(RLIMIT_CPU, limits.cpu_seconds) != 0) {
            child_fail(report, TC_SPAWN_LIMITS);
        }
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, envp);
        child_fail(report, TC_SPAWN_EXEC);
    }
    int fork_errno = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(status_pipe[1]);
    if (child < 0) {
        close(status_pipe[0]);
        *stage = TC_SPAWN_FORK;
        return fork_errno;
    }
    int report[2];
    ssize_t got;
    do {
        got = read(status_pipe[0], report, sizeof report);
    } while (got < 0 && errno == EINTR);
    close(status_pipe[0]);
    if (got == (ssize_t)sizeof report) {
        int status;
        waitpid(child, &status, 0);
        *stage = report[0];
        return report[1];
    }
    *pid = child;
    return 0;
}

int tc_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

void tc_await_exit(pid_t pid) {
    siginfo_t info;
    int result;
    do {
        memset(&info, 0, sizeof info);
        result = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT);
    } while (result != 0 && errno == EINTR);
    kill(-pid, SIGKILL);
}

int tc_reap_app(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1000;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return -WTERMSIG(status);
    return -1000;
}

/* Crash clean-up: a fixed table, so the handler needs no allocation or lock. */
#define TRACKED_GROUPS 256
static _Atomic pid_t tracked_groups[TRACKED_GROUPS];
static const int fatal_signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE};
#define FATAL_SIGNAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous_actions[FATAL_SIGNAL_COUNT];
static atomic_flag handler_installed = ATOMIC_FLAG_INIT;

/* The crash mark: a descriptor and two note buffers, the one being written and the one a crash
   reads, so a note is never read half-copied by a crash on another thread. */
#define NOTE_BYTES 160
static _Atomic int crash_mark = -1;
static char notes[2][NOTE_BYTES];
static _Atomic int current_note = -1;

static size_t append_text(char *line, size_t length, size_t capacity, const char *text) {
    while (*text && length < capacity) line[length++] = *text++;
    return length;
}

static void write_crash_line(int signo) {
    int fd = atomic_load(&crash_mark);
    if (fd < 0) return;
    char line[NOTE_BYTES + 32];
    size_t length = append_text(line, 0, sizeof line - 1, "crash ");
    char digits[12];
    int count = 0;
    for (int value = signo; count == 0 || value > 0; value /= 10) digits[count++] = (char)('0' + value % 10);
    while (count > 0 && length < sizeof line - 1) line[length++] = digits[--count];
    int note = atomic_load(&current_note);
    if (note >= 0) {
        line[length++] = ' ';
        length = append_text(line, length, sizeof line - 1, notes[note]);
    }
    line[length++] = '\n';
    lseek(fd, 0, SEEK_END);
    ssize_t ignored = write(fd, line, length);
    (void)ignored;
}

static void on_fatal_signal(int signo) {
    for (int i = 0; i < TRACKED_GROUPS; i++) {
        pid_t group = atomic_load(&tracked_groups[i]);
        if (group > 0) kill(-group, SIGKILL);
    }
    write_crash_line(signo);
    for (unsigned i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        if (fatal_signals[i] == signo) sigaction(signo, &previous_actions[i], NULL);
    }
    raise(signo);
}

static void install_fatal_handler(void) {
    if (atomic_flag_test_and_set(&handler_installed)) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    for (unsigned i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        sigaction(fatal_signals[i], NULL, &previous_actions[i]);
        if (previous_actions[i].sa_handler != SIG_IGN) sigaction(fatal_signals[i], &action, NULL);
    }
}

void tc_track_group(pid_t group) {
    install_fatal_handler();
    for (int i = 0; i < TRACKED_GROUPS; i++) {
        pid_t empty = 0;
        if (atomic_compare_exchange_strong(&tracked_groups[i], &empty, group)) return;
    }
}

void tc_untrack_group(pid_t group) {
    for (int i = 0; i < TRACKED_GROUPS; i++) {
        pid_t expected = group;
        if (atomic_compare_exchange_strong(&tracked_groups[i], &expected, 0)) return;
    }
}

void tc_crash_mark(int fd) {
    install_fatal_handler();
    atomic_store(&crash_mark, fd);
}

void tc_crash_note(const char *subject, const char *what) {
    int next = atomic_load(&current_note) == 0 ? 1 : 0;
    size_t length = append_text(notes[next], 0, NOTE_BYTES - 1, subject);
    if (length < NOTE_BYTES - 1) notes[next][length++] = ' ';
    length = append_text(notes[next], length, NOTE_BYTES - 1, what);
    notes[next][length] = 0;
    atomic_store(&current_note, next);
}
