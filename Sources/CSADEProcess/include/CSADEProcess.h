#ifndef CSADEPROCESS_H
#define CSADEPROCESS_H

/// glibc's GNU extensions that Swift's Glibc module leaves out (it is built without
/// _GNU_SOURCE). `actions` is a `posix_spawn_file_actions_t *`.

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `from` on.
int sade_spawn_add_close_from(void *actions, int from);
/// posix_spawn_file_actions_addchdir_np: the child starts in `path`.
int sade_spawn_add_chdir(void *actions, const char *path);
/// pipe2 with O_CLOEXEC: a pipe no child inherits unless given it.
int sade_pipe_cloexec(int descriptors[2]);

#endif
