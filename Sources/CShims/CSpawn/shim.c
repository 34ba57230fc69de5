#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include "CSpawn.h"

int tc_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int tc_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

short tc_spawn_new_session_flag(void) { return POSIX_SPAWN_SETSID; }
