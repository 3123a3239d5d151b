// A frozen copy of the calling process: fork, and the child stops at once.
#define _GNU_SOURCE
#include "CMemoryView.h"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t mv_forkFrozenCopy(void) {
  pid_t parent = getpid();
  pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    // The child of a multithreaded process: async-signal-safe calls only. It
    // dies with its parent, and otherwise waits stopped to be read and killed.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);
    raise(SIGSTOP);
    for (;;) pause();
  }
  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(child, &status, WUNTRACED);
  } while (waited < 0 && errno == EINTR);
  if (waited != child || !WIFSTOPPED(status)) {
    mv_endFrozenCopy(child);
    return -1;
  }
  return child;
}

void mv_endFrozenCopy(pid_t child) {
  if (child <= 0) return;
  kill(child, SIGKILL);
  pid_t waited;
  do {
    waited = waitpid(child, NULL, 0);
  } while (waited < 0 && errno == EINTR);
}
