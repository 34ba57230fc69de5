#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>

/* What glibc declares for spawning only under _GNU_SOURCE, which Swift's Glibc module does not
   define, so Swift does not import it. */

/* pipe2(fds, O_CLOEXEC): a pipe no program started later inherits. */
int tc_pipe(int fds[2]);

/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor
   from `from` up, whatever this process has open that is not close-on-exec (a library's socket,
   another thread's pipe made a moment ago). */
int tc_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/* POSIX_SPAWN_SETSID (glibc 2.26): the child starts a session of its own. */
short tc_spawn_new_session_flag(void);

#endif
