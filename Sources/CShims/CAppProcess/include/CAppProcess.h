#ifndef CAPPPROCESS_H
#define CAPPPROCESS_H

/* The one C shim over the process calls that Swift cannot make safely: starting a micro-app
   under a keeper process (between fork and exec, and in the keeper, only async-signal-safe
   calls are allowed), waiting for it without reaping it, and, in a fatal-signal handler,
   telling the keepers to end their apps and noting what the dashboard was doing when it died. */

#include <sys/types.h>

#include "CAppSandbox.h"

/* What a micro-app may use; 0 leaves a limit as it is. */
typedef struct {
    unsigned long long data_bytes;  /* RLIMIT_DATA: heap and private mappings */
    unsigned long long open_files;  /* RLIMIT_NOFILE */
    unsigned long long cpu_seconds; /* RLIMIT_CPU */
    /* Tasks (processes and threads) the app may run. In a world of its own the kernel counts its
       user's tasks in its user namespace alone, root's apps included: RLIMIT_NPROC is this (and
       one for the world's init). Without one, RLIMIT_NPROC is the tasks its user runs when it
       starts plus this, and root, whom the kernel exempts, is not bound. */
    unsigned long long processes;
    unsigned long long file_bytes;  /* RLIMIT_FSIZE: the largest file it may write */
} tc_app_limits;

/* The step of tc_spawn_app that failed. */
#define TC_SPAWN_FORK 1
#define TC_SPAWN_SESSION 2
#define TC_SPAWN_STREAMS 3
#define TC_SPAWN_DIRECTORY 4
#define TC_SPAWN_LIMITS 5
#define TC_SPAWN_EXEC 6
#define TC_SPAWN_KEEPER 7
#define TC_SPAWN_SANDBOX 8
#define TC_SPAWN_WORLD 9 /* entering its namespaces, or mapping its ids into them */
#define TC_SPAWN_VIEW 10 /* building its filesystem view; *detail is the view entry, or -1 */

/* Starts a micro-app under a keeper: a fork of the dashboard that is a subreaper
   (PR_SET_CHILD_SUBREAPER), so that every process the app starts — daemons that fork twice into
   sessions of their own included — stays its descendant, and that ends them all when the app
   exits, when the dashboard asks, or when the dashboard dies (the keeper's PR_SET_PDEATHSIG is
   SIGHUP; the app's, SIGKILL, follows the keeper). The keeper then exits as the app did.

   The app is `path` with `argv` and exactly the environment `envp`, in `directory`, in a session
   and process group of its own (so it has no controlling terminal: /dev/tty cannot be opened),
   with stdin, stdout and stderr on the three descriptors given and every other descriptor
   closed, default signal handling, no core dumps and the limits given, and, last before exec,
   inside `sandbox` (NULL for none; see CAppSandbox.h). In a world of its own (sandbox->world) the
   keeper's child is the world's init, which builds the view, starts the app and stays its
   reaper; *app_pid is then that init. Returns 0 and sets *keeper_pid (the process to wait for and
   signal through) and *app_pid, or an errno, *stage and *detail.
   Call it from a thread that lives as long as the dashboard: the kernel sends the keeper its
   SIGHUP when the *thread* that forked exits. */
int tc_spawn_app(const char *path, char *const argv[], char *const envp[], const char *directory,
                 int stdin_fd, int stdout_fd, int stderr_fd, tc_app_limits limits, const tc_sandbox *sandbox,
                 pid_t *keeper_pid, pid_t *app_pid, int *stage, int *detail);

/* Has the keeper send `signo` to its app's process group (while the app runs). */
int tc_signal_app(pid_t keeper_pid, int signo);

/* Blocks until the keeper `pid` exits, without reaping it: its id cannot be reused until
   tc_reap_app, so nothing signalled through it until then reaches a stranger. */
void tc_await_exit(pid_t pid);

/* Reaps an exited keeper. Returns its app's exit status (0-255), or minus the signal that
   killed it, or -1000 on error. */
int tc_reap_app(pid_t pid);

/* Remembers a keeper to tell (SIGHUP: end everything) if the dashboard dies of a fatal signal;
   installs the handler on first use, in front of any handler already there, which it then runs. */
void tc_track_keeper(pid_t keeper_pid);
void tc_untrack_keeper(pid_t keeper_pid);

/* The crash mark: should the dashboard die of a fatal signal (a Swift trap is SIGILL or SIGTRAP),
   the handler appends "crash SIGNAL NOTE\n" to `fd` first, NOTE being the last tc_crash_note
   (what the main thread was handling). Installs the handler on first use, like tc_track_keeper. */
void tc_crash_mark(int fd);
/* Sets the note: `subject` (a pane's app), a space, `what` (the call), cut at 159 bytes. */
void tc_crash_note(const char *subject, const char *what);

#endif
