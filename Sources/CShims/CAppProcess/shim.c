#define _GNU_SOURCE
#include "CAppProcess.h"
#include "CAppSandbox.h"

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

/* A report through a status pipe: {0, the app's pid} when started, or {stage, errno, detail}. */
#define REPORT_INTS 3

static void report_to(int fd, int first, int second, int third) {
    int report[REPORT_INTS] = {first, second, third};
    ssize_t ignored = write(fd, report, sizeof report);
    (void)ignored;
}

/* Reports the failed step and errno to the parent through the status pipe, then exits. */
static void child_fail(int status_fd, int stage) {
    report_to(status_fd, stage, errno, -1);
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

int tc_apply_sandbox(const tc_sandbox *sandbox);
pid_t tc_world_clone(const tc_sandbox *sandbox);
int tc_world_map(pid_t init, const tc_sandbox *sandbox);
int tc_world_build(const tc_sandbox *sandbox, const int *trees, int *detail);
int tc_world_trees(const tc_sandbox *sandbox, int *trees, int *detail);

/* Closes every descriptor from 3 up but `keep` and `also` (-1 for none). */
static void close_above_stdio(int keep, int also) {
    if (also < 3) also = -1;
    int low = also >= 0 && also < keep ? also : keep, high = also > keep ? also : keep;
#ifdef SYS_close_range
    if ((low == 3 || syscall(SYS_close_range, 3U, (unsigned)low - 1, 0) == 0) &&
        (high == low || high == low + 1 || syscall(SYS_close_range, (unsigned)low + 1, (unsigned)high - 1, 0) == 0) &&
        syscall(SYS_close_range, (unsigned)high + 1, ~0U, 0) == 0) return;
#endif
    struct rlimit limit;
    long last = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? (long)limit.rlim_cur : 4096;
    if (last > 65536) last = 65536;
    for (long fd = 3; fd < last; fd++) {
        if (fd != keep && fd != also) close((int)fd);
    }
}

/* Reads a whole report; 0 when the pipe ended first (the writer exec'd or died). */
static int read_report(int fd, int report[REPORT_INTS]) {
    ssize_t got;
    do {
        got = read(fd, report, REPORT_INTS * sizeof(int));
    } while (got < 0 && errno == EINTR);
    return got == (ssize_t)(REPORT_INTS * sizeof(int));
}

/* A decimal number from `text` up to a non-digit; -1 when there is none. */
static long parse_number(const char *text) {
    long value = -1;
    for (; *text >= '0' && *text <= '9'; text++) value = (value < 0 ? 0 : value * 10) + (*text - '0');
    return value;
}

/* Calls `visit` with /proc's descriptor, each process's entry name and its id, with raw system
   calls (nothing here may allocate), and returns the sum of what it returned. */
static long each_process(long (*visit)(int proc, const char *name, long pid, long context), long context) {
    int directory = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) return 0;
    long sum = 0;
    char entries[4096];
    long count;
    while ((count = syscall(SYS_getdents64, directory, entries, sizeof entries)) > 0) {
        for (long offset = 0; offset < count;) {
            struct { unsigned long long ino; long long off; unsigned short reclen; unsigned char type; char name[]; } *entry =
                (void *)(entries + offset);
            offset += entry->reclen;
            long pid = parse_number(entry->name);
            if (pid > 0) sum += visit(directory, entry->name, pid, context);
        }
    }
    close(directory);
    return sum;
}

/* Reads /proc/NAME/FILE (at most size - 1 bytes, NUL-terminated) with raw system calls; 0 when
   it cannot be read (the process is gone). */
static ssize_t read_proc_file(int proc, const char *name, const char *file, char *buffer, size_t size) {
    char path[64];
    size_t length = 0;
    for (const char *c = name; *c && length < 50; c++) path[length++] = *c;
    path[length++] = '/';
    for (const char *c = file; *c && length < sizeof path - 1; c++) path[length++] = *c;
    path[length] = 0;
    int fd = openat(proc, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t got = read(fd, buffer, size - 1);
    close(fd);
    if (got <= 0) return 0;
    buffer[got] = 0;
    return got;
}

/* SIGKILLs the process if its parent is `parent` and it is not a zombie; 1 if it did. */
static long kill_if_child(int proc, const char *name, long pid, long parent) {
    char stat[512];
    if (pid == parent || read_proc_file(proc, name, "stat", stat, sizeof stat) == 0) return 0;
    /* "pid (comm) state ppid …": comm may hold spaces and parentheses, so from the last ')'. */
    char *end = NULL;
    for (char *c = stat; *c; c++) if (*c == ')') end = c;
    if (end == NULL || end[1] != ' ' || end[2] == 0 || end[3] != ' ') return 0;
    if (parse_number(end + 4) != parent || end[2] == 'Z') return 0;
    kill((pid_t)pid, SIGKILL);
    return 1;
}

/* SIGKILLs every live child of the keeper. */
static void kill_children(pid_t self) {
    each_process(kill_if_child, self);
}

/* The number after "\nNAME:" and blanks in `text`; -1 when there is none. */
static long status_field(const char *text, const char *name) {
    size_t length = strlen(name);
    for (const char *line = text; (line = strchr(line, '\n')) != NULL;) {
        line++;
        if (strncmp(line, name, length) == 0 && line[length] == ':') {
            const char *value = line + length + 1;
            while (*value == '\t' || *value == ' ') value++;
            return parse_number(value);
        }
    }
    return -1;
}

/* The process's threads if its real user is `user` (the user the kernel counts a task against). */
static long tasks_of_user(int proc, const char *name, long pid, long user) {
    (void)pid;
    char status[4096];
    if (read_proc_file(proc, name, "status", status, sizeof status) == 0 || status_field(status, "Uid") != user) return 0;
    long threads = status_field(status, "Threads");
    return threads > 0 ? threads : 1;
}

/* Sets RLIMIT_NPROC to the tasks the real user runs now plus `more` (see tc_app_limits.processes).
   Not as root, whom the kernel does not hold to it. */
static int limit_processes(unsigned long long more) {
    uid_t user = getuid();
    if (more == 0 || user == 0) return 0;
    return set_limit(RLIMIT_NPROC, (unsigned long long)each_process(tasks_of_user, (long)user) + more);
}

/* In a world of its own, the kernel counts the tasks of the app's user in its user namespace
   alone, root's apps included (they are not root there): the app, and the world's init. */
static int limit_world_processes(unsigned long long processes) {
    return processes == 0 ? 0 : set_limit(RLIMIT_NPROC, processes + 1);
}

/* Ends every descendant: as a subreaper the keeper inherits the orphans of what it kills, so it
   kills its children and reaps until it has none left. Every zombie is reaped before the next scan
   of /proc: a fork bomb's thousands, one a scan, would take minutes, and hold the user's process
   allowance meanwhile. */
static void end_descendants(pid_t self) {
    for (;;) {
        kill_children(self);
        int reaped = 0;
        pid_t pid;
        while ((pid = waitpid(-1, NULL, WNOHANG)) > 0) reaped++;
        if (pid < 0 && errno == ECHILD) return;
        if (reaped == 0 && waitpid(-1, NULL, 0) < 0 && errno == ECHILD) return;
    }
}

/* Dies as the app did: of the same signal, or with the same exit status. */
static void exit_like(int status) {
    if (WIFSIGNALED(status)) {
        int signo = WTERMSIG(status);
        struct sigaction standard;
        memset(&standard, 0, sizeof standard);
        standard.sa_handler = SIG_DFL;
        sigaction(signo, &standard, NULL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, signo);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        kill(getpid(), signo);
        _exit(128 + signo);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

/* The signals a keeper and a world's init take with sigwaitinfo. */
static void waited_signals(sigset_t *waited) {
    sigemptyset(waited);
    const int signals[] = {SIGCHLD, SIGHUP, SIGTERM, SIGINT, SIGQUIT, SIGUSR1};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(waited, signals[i]);
}

/* The app's own process, from fork to exec: a session of its own, its folder, its limits, default
   signal handling, its sandbox; failures reported through `own`. */
static void start_app(int own, const char *path, char *const argv[], char *const envp[], const char *directory,
                      tc_app_limits limits, const tc_sandbox *sandbox, int in_world) {
    if (setsid() < 0) child_fail(own, TC_SPAWN_SESSION);
    if (directory && chdir(directory) != 0) child_fail(own, TC_SPAWN_DIRECTORY);
    struct rlimit no_core = {0, 0};
    if (setrlimit(RLIMIT_CORE, &no_core) != 0 || set_limit(RLIMIT_DATA, limits.data_bytes) != 0 ||
        set_limit(RLIMIT_NOFILE, limits.open_files) != 0 || set_limit(RLIMIT_CPU, limits.cpu_seconds) != 0 ||
        set_limit(RLIMIT_FSIZE, limits.file_bytes) != 0 ||
        (in_world ? limit_world_processes(limits.processes) : limit_processes(limits.processes)) != 0) {
        child_fail(own, TC_SPAWN_LIMITS);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* Last: the seccomp filter refuses nothing exec needs. */
    if (sandbox != NULL) {
        int failed = tc_apply_sandbox(sandbox);
        if (failed != 0) {
            errno = failed;
            child_fail(own, TC_SPAWN_SANDBOX);
        }
    }
    execve(path, argv, envp);
    child_fail(own, TC_SPAWN_EXEC);
}

/* The first process of an app's world (its PID 1): builds the world's view, starts the app in it
   and stays, reaping every orphan of the world and passing on the signals its keeper queues
   (SIGUSR1, sent from outside the world); when the app exits, it writes the app's wait status to
   `status` and exits, and the kernel ends every process left in the world. */
static void world_init(int own, int status, const char *path, char *const argv[], char *const envp[], const char *directory,
                       tc_app_limits limits, const tc_sandbox *sandbox, const int *trees) {
    int detail = -1;
    int failed = tc_world_build(sandbox, trees, &detail);
    if (failed != 0) {
        report_to(own, TC_SPAWN_VIEW, failed, detail);
        _exit(127);
    }
    pid_t app = fork();
    if (app < 0) child_fail(own, TC_SPAWN_FORK);
    if (app == 0) {
        close(status);
        start_app(own, path, argv, envp, directory, limits, sandbox, 1);
    }
    close(own);
    if (sandbox->landlock_ruleset >= 0) close(sandbox->landlock_ruleset);
    sigset_t waited;
    waited_signals(&waited);
    for (;;) {
        siginfo_t info;
        if (sigwaitinfo(&waited, &info) < 0) continue;
        if (info.si_signo == SIGUSR1) {
            /* From outside the world (its pid is 0 here): the keeper's, never the app's own. */
            if (info.si_code == SI_QUEUE && info.si_pid == 0) kill(-app, info.si_value.sival_int);
        } else if (info.si_signo == SIGCHLD) {
            int app_status;
            pid_t reaped;
            while ((reaped = waitpid(-1, &app_status, WNOHANG)) > 0) {
                if (reaped == app) {
                    ssize_t ignored = write(status, &app_status, sizeof app_status);
                    (void)ignored;
                    _exit(0);
                }
            }
        } else if (info.si_code <= 0 && info.si_pid != 0) {
            continue; /* sent from inside the world: the app may not end its keeper's init */
        } else {
            _exit(128 + info.si_signo);
        }
    }
}

/* The keeper: starts the app as its child and stays, a subreaper, until the app has exited and
   every process the app started has been killed; then exits as the app did. It forwards the
   signals the dashboard queues to it (SIGUSR1 carrying the signal) to the app's group, and on
   SIGHUP (the dashboard died: PR_SET_PDEATHSIG), SIGTERM or SIGINT kills the app and all it
   started. In a world (sandbox->world) its child is the world's init, which the kernel's PID
   namespace makes the end of every process in the world. Runs in a fork of a threaded process:
   system calls only, no allocation. */
static void keeper(pid_t dashboard, int report, const char *path, char *const argv[], char *const envp[],
                   const char *directory, tc_app_limits limits, const tc_sandbox *sandbox) {
    pid_t self = getpid();
    int world = sandbox != NULL && sandbox->world;
    int inner[2], go[2] = {-1, -1}, status[2] = {-1, -1};
    if (pipe2(inner, O_CLOEXEC) != 0) child_fail(report, TC_SPAWN_KEEPER);
    if (world && (pipe2(go, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC | O_NONBLOCK) != 0)) child_fail(report, TC_SPAWN_KEEPER);
    int trees[TC_VIEW_MOST];
    if (world) {
        int detail = -1;
        int failed = tc_world_trees(sandbox, trees, &detail);
        if (failed != 0) {
            report_to(report, TC_SPAWN_VIEW, failed, detail);
            _exit(127);
        }
    }
    pid_t app = world ? tc_world_clone(sandbox) : fork();
    if (app < 0) child_fail(report, world ? TC_SPAWN_WORLD : TC_SPAWN_KEEPER);
    if (app == 0) {
        close(report);
        close(inner[0]);
        int own = inner[1];
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) _exit(127);
        if (!world) {
            if (getppid() != self) _exit(127);
            start_app(own, path, argv, envp, directory, limits, sandbox, 0);
        }
        close(go[1]);
        close(status[0]);
        /* Until the keeper has mapped the world's ids (or died: the pipe ends). */
        char mapped;
        if (read(go[0], &mapped, 1) != 1) _exit(127);
        close(go[0]);
        world_init(own, status[1], path, argv, envp, directory, limits, sandbox, trees);
    }
    close(inner[1]);
    if (world) {
        for (int i = 0; i < sandbox->view_count; i++) {
            if (trees[i] >= 0) close(trees[i]);
        }
        close(go[0]);
        close(status[1]);
        int failed = tc_world_map(app, sandbox);
        if (failed != 0) {
            kill(app, SIGKILL);
            waitpid(app, NULL, 0);
            report_to(report, TC_SPAWN_WORLD, failed, -1);
            _exit(127);
        }
        ssize_t ignored = write(go[1], "m", 1);
        (void)ignored;
        close(go[1]);
    }
    if (sandbox != NULL && sandbox->landlock_ruleset >= 0) close(sandbox->landlock_ruleset);
    /* The app's streams are the app's: the keeper keeps none of them open. */
    close(0);
    close(1);
    close(2);
    int failure[REPORT_INTS];
    if (read_report(inner[0], failure)) {
        report_to(report, failure[0], failure[1], failure[2]);
        kill(app, SIGKILL);
        waitpid(app, NULL, 0);
        _exit(127);
    }
    close(inner[0]);
    report_to(report, 0, app, 0);
    close(report);

    sigset_t waited;
    waited_signals(&waited);
    int app_status = 0, app_done = 0;
    while (!app_done) {
        siginfo_t info;
        if (sigwaitinfo(&waited, &info) < 0) continue;
        if (info.si_signo == SIGUSR1) {
            if (info.si_code == SI_QUEUE && info.si_pid == dashboard) {
                if (world) {
                    sigqueue(app, SIGUSR1, info.si_value);
                } else {
                    kill(-app, info.si_value.sival_int);
                }
            }
        } else if (info.si_signo == SIGCHLD) {
            int reaped_status;
            pid_t reaped;
            while ((reaped = waitpid(-1, &reaped_status, WNOHANG)) > 0) {
                if (reaped == app) {
                    app_status = reaped_status;
                    app_done = 1;
                }
            }
        } else {
            kill(-app, SIGKILL);
            kill(app, SIGKILL);
            waitpid(app, &app_status, 0);
            app_done = 1;
        }
    }
    /* The world's init wrote how the app ended; killed itself, it wrote nothing. */
    if (world) {
        int ended;
        if (read(status[0], &ended, sizeof ended) == (ssize_t)sizeof ended) app_status = ended;
    }
    end_descendants(self);
    exit_like(app_status);
}

int tc_spawn_app(const char *path, char *const argv[], char *const envp[], const char *directory,
                 int stdin_fd, int stdout_fd, int stderr_fd, tc_app_limits limits, const tc_sandbox *sandbox,
                 pid_t *keeper_pid, pid_t *app_pid, int *stage, int *detail) {
    *detail = -1;
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0) {
        *stage = TC_SPAWN_FORK;
        return errno;
    }
    pid_t parent = getpid();
    sigset_t all, previous;
    sigfillset(&all);
    /* No handler of the dashboard may run in the keeper, which keeps every signal blocked and
       takes them with sigwaitinfo; the app unblocks them before exec. */
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t child = fork();
    if (child == 0) {
        close(status_pipe[0]);
        int report = status_pipe[1];
        struct sigaction standard;
        memset(&standard, 0, sizeof standard);
        standard.sa_handler = SIG_DFL;
        for (int signal = 1; signal < NSIG; signal++) sigaction(signal, &standard, NULL);
        if (prctl(PR_SET_PDEATHSIG, SIGHUP) != 0 || getppid() != parent) _exit(127);
        if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) child_fail(report, TC_SPAWN_KEEPER);
        prctl(PR_SET_NAME, "tc-app-keeper");
        if (setsid() < 0) child_fail(report, TC_SPAWN_SESSION);
        /* Move the streams above 2 first, so that one dup2 cannot close another's source. */
        int in = fcntl(stdin_fd, F_DUPFD_CLOEXEC, 3), out = fcntl(stdout_fd, F_DUPFD_CLOEXEC, 3),
            err = fcntl(stderr_fd, F_DUPFD_CLOEXEC, 3);
        if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
            child_fail(report, TC_SPAWN_STREAMS);
        }
        /* Nothing of the dashboard's (its terminal, database, other apps' pipes) stays open. */
        close_above_stdio(report, sandbox != NULL ? sandbox->landlock_ruleset : -1);
        keeper(parent, report, path, argv, envp, directory, limits, sandbox);
    }
    int fork_errno = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(status_pipe[1]);
    if (child < 0) {
        close(status_pipe[0]);
        *stage = TC_SPAWN_FORK;
        return fork_errno;
    }
    int report[REPORT_INTS];
    int got = read_report(status_pipe[0], report);
    close(status_pipe[0]);
    if (!got || report[0] != 0) {
        waitpid(child, NULL, 0);
        *stage = got ? report[0] : TC_SPAWN_KEEPER;
        if (got) *detail = report[2];
        return got ? report[1] : ECHILD;
    }
    *keeper_pid = child;
    *app_pid = report[1];
    return 0;
}

int tc_signal_app(pid_t keeper_pid, int signo) {
    union sigval value;
    value.sival_int = signo;
    return sigqueue(keeper_pid, SIGUSR1, value);
}

void tc_await_exit(pid_t pid) {
    siginfo_t info;
    int result;
    do {
        memset(&info, 0, sizeof info);
        result = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT);
    } while (result != 0 && errno == EINTR);
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

/* Crash clean-up: a fixed table of keepers, so the handler needs no allocation or lock. */
#define TRACKED_KEEPERS 256
static _Atomic pid_t tracked_keepers[TRACKED_KEEPERS];
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
    for (int i = 0; i < TRACKED_KEEPERS; i++) {
        pid_t keeper_pid = atomic_load(&tracked_keepers[i]);
        if (keeper_pid > 0) kill(keeper_pid, SIGHUP);
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

void tc_track_keeper(pid_t keeper_pid) {
    install_fatal_handler();
    for (int i = 0; i < TRACKED_KEEPERS; i++) {
        pid_t empty = 0;
        if (atomic_compare_exchange_strong(&tracked_keepers[i], &empty, keeper_pid)) return;
    }
}

void tc_untrack_keeper(pid_t keeper_pid) {
    for (int i = 0; i < TRACKED_KEEPERS; i++) {
        pid_t expected = keeper_pid;
        if (atomic_compare_exchange_strong(&tracked_keepers[i], &expected, 0)) return;
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
