#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "CSADEProcess.h"

int sade_spawn_add_close_from(void *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, from);
}

int sade_spawn_add_chdir(void *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np((posix_spawn_file_actions_t *)actions, path);
}

int sade_pipe_cloexec(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC);
}
