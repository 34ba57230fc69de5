#ifndef CAPPPROCESS_H
#define CAPPPROCESS_H

/* The one C shim over the process calls that Swift cannot make safely: starting a micro-app
   between fork and exec (where only async-signal-safe calls are allowed), waiting for it
   without reaping it, and, in a fatal-signal handler, killing what is left of its group and
   noting what the dashboard was doing when it died. */

#include <sys/types.h>

/* What a micro-app may use; 0 leaves a limit as it is. */
typedef struct {
    unsigned long long data_bytes;  /* RLIMIT_DATA: heap and private mappings */
    unsigned long long open_files;  /* RLIMIT_NOFILE */
    unsigned long long cpu_seconds; /* RLIMIT_CPU */
} tc_app_limits;

/* The step of tc_spawn_app that failed. */
#define TC_SPAWN_FORK 1
#define TC_SPAWN_SESSION 2
#define TC_SPAWN_STREAMS 3
#define TC_SPAWN_DIRECTORY 4
#define TC_SPAWN_LIMITS 5
#define TC_SPAWN_EXEC 6

/* Starts `path` with `argv` and exactly the environment `envp` in `directory`, in a session and
   process group of its own (so it has no controlling terminal: /dev/tty cannot be opened), with
   stdin, stdout and stderr on the three descriptors given and every other descriptor closed,
   default signal handling, no core dumps, the limits given, and SIGKILL sent to it should the
   dashboard die first. Returns 0 and sets *pid, or an errno and sets *stage.
   Call it from a thread that lives as long as the dashboard: the kernel sends that SIGKILL when
   the *thread* that forked exits, so a worker thread that ends would take the app with it. */
int tc_spawn_app(const char *path, char *const argv[], char *const envp[], const char *directory,
                 int stdin_fd, int stdout_fd, int stderr_fd, tc_app_limits limits,
                 pid_t *pid, int *stage);

/* pipe2(fds, O_CLOEXEC), which Swift does not import (it is declared only under _GNU_SOURCE). */
int tc_pipe(int fds[2]);

/* Blocks until `pid` exits, then kills whatever is left in its process group. The exited
   process is not reaped, so its id (and its group's) cannot be reused until tc_reap_app:
   signals sent to the group until then reach no stranger. */
void tc_await_exit(pid_t pid);

/* Reaps an exited app. Returns its exit status (0-255), or minus the signal that killed it,
   or -1000 on error. */
int tc_reap_app(pid_t pid);

/* Remembers a group to SIGKILL if the dashboard dies of a fatal signal (a crash); installs the
   handler on first use, in front of any handler already there, which it then runs. */
void tc_track_group(pid_t group);
void tc_untrack_group(pid_t group);

/* The crash mark: should the dashboard die of a fatal signal (a Swift trap is SIGILL or SIGTRAP),
   the handler appends "crash SIGNAL NOTE\n" to `fd` first, NOTE being the last tc_crash_note
   (what the main thread was handling). Installs the handler on first use, like tc_track_group. */
void tc_crash_mark(int fd);
/* Sets the note: `subject` (a pane's app), a space, `what` (the call), cut at 159 bytes. */
void tc_crash_note(const char *subject, const char *what);

#endif
