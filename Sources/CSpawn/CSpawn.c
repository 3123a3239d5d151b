#define _GNU_SOURCE
#include "CSpawn.h"

#include <fcntl.h>
#include <unistd.h>

int cs_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
