// Process control for `leaklab leaks`: a program started under ptrace and
// held at its exit with its memory intact, or a running process stopped,
// read and let go without a signal.
//
// Exit: with PTRACE_O_TRACEEXIT every thread stops early in its exit, before
// the kernel releases anything. A thread that ends alone (pthread_exit: the
// `exit` system call) is let go; the thread that calls `exit_group` marks the
// process's end, and the other threads, killed by it, stop at their own exit
// stops. The run is over when every traced thread is held there.
#define _GNU_SOURCE
#include "CProcessLeaks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef enum PLThreadState {
  PLThreadRunning = 0,
  /// Held at its exit stop.
  PLThreadAtExit = 1,
  /// Stopped after an attach (interrupt or signal stop).
  PLThreadStopped = 2,
  /// Gone.
  PLThreadGone = 3,
} PLThreadState;

typedef struct PLThread {
  pid_t tid;
  PLThreadState state;
  /// A signal that arrived while attaching, delivered again at detach.
  int pendingSignal;
  bool registersRead;
  struct user_regs_struct registers;
} PLThread;

struct PLTracee {
  pid_t pid;
  PLThread *threads;
  size_t count;
  size_t capacity;
  bool groupExit;
  int exitStatus;
  /// Whether the spawned program has been let run (its first stop continued).
  bool started;
  /// Set when the end was seen while stopping the threads; the next run reports it.
  bool hasEnd;
  PLEnd end;
  struct sigaction savedInterrupt;
  struct sigaction savedQuit;
  bool signalsSaved;
};

// MARK: Threads

static PLThread *pl_thread(PLTracee *tracee, pid_t tid) {
  for (size_t index = 0; index < tracee->count; index++)
    if (tracee->threads[index].tid == tid) return &tracee->threads[index];
  return NULL;
}

static PLThread *pl_addThread(PLTracee *tracee, pid_t tid, PLThreadState state) {
  PLThread *existing = pl_thread(tracee, tid);
  if (existing != NULL) return existing;
  if (tracee->count == tracee->capacity) {
    size_t capacity = tracee->capacity == 0 ? 16 : tracee->capacity * 2;
    PLThread *grown = realloc(tracee->threads, capacity * sizeof(PLThread));
    if (grown == NULL) return NULL;
    tracee->threads = grown;
    tracee->capacity = capacity;
  }
  PLThread *thread = &tracee->threads[tracee->count++];
  memset(thread, 0, sizeof *thread);
  thread->tid = tid;
  thread->state = state;
  return thread;
}

static PLTracee *pl_newTracee(pid_t pid) {
  PLTracee *tracee = calloc(1, sizeof(PLTracee));
  if (tracee == NULL) return NULL;
  tracee->pid = pid;
  return tracee;
}

pid_t pl_pid(const PLTracee *tracee) { return tracee->pid; }

size_t pl_threadCount(const PLTracee *tracee) {
  size_t held = 0;
  for (size_t index = 0; index < tracee->count; index++) {
    PLThreadState state = tracee->threads[index].state;
    if (state == PLThreadAtExit || state == PLThreadStopped) held++;
  }
  return held;
}

bool pl_threadRegisters(const PLTracee *tracee, size_t index, pid_t *outThread, uint64_t words[PLRegisterWords]) {
  size_t seen = 0;
  for (size_t item = 0; item < tracee->count; item++) {
    const PLThread *thread = &tracee->threads[item];
    if (thread->state != PLThreadAtExit && thread->state != PLThreadStopped) continue;
    if (seen++ != index) continue;
    *outThread = thread->tid;
    if (!thread->registersRead) return false;
    _Static_assert(sizeof(struct user_regs_struct) == PLRegisterWords * sizeof(uint64_t), "register words");
    memcpy(words, &thread->registers, sizeof thread->registers);
    return true;
  }
  return false;
}

void pl_free(PLTracee *tracee) {
  if (tracee == NULL) return;
  if (tracee->signalsSaved) {
    sigaction(SIGINT, &tracee->savedInterrupt, NULL);
    sigaction(SIGQUIT, &tracee->savedQuit, NULL);
  }
  free(tracee->threads);
  free(tracee);
}

static void pl_readRegisters(PLThread *thread) {
  thread->registersRead = ptrace(PTRACE_GETREGS, thread->tid, NULL, &thread->registers) == 0;
}

// MARK: Spawn

/// Unblocks every signal (async-signal-safe): a thread that spawns may block
/// some (seen through tmux), and the program would inherit its mask.
static int pl_unblockSignals(void) {
  sigset_t none;
  sigemptyset(&none);
  return sigprocmask(SIG_SETMASK, &none, NULL);
}

PLTracee *pl_spawn(
    const char *path, char *const argv[], char *const envp[], int stdinFD, int stdoutFD, int stderrFD,
    bool ownProcessGroup, int *outError, PLSpawnStage *outStage) {
  extern char **environ;
  *outError = 0;
  // The child reports a failed step (stage, errno) through a pipe closed on exec.
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    *outError = errno;
    *outStage = PLSpawnFork;
    return NULL;
  }
  pid_t child = fork();
  if (child < 0) {
    *outError = errno;
    *outStage = PLSpawnFork;
    close(report[0]);
    close(report[1]);
    return NULL;
  }
  if (child == 0) {
    // Only async-signal-safe calls here: the parent may have other threads.
    close(report[0]);
    int failure[2] = {PLSpawnTraceMe, 0};
    if ((stdoutFD >= 0 && stdoutFD != STDOUT_FILENO && dup2(stdoutFD, STDOUT_FILENO) < 0)
        || (stdinFD >= 0 && stdinFD != STDIN_FILENO && dup2(stdinFD, STDIN_FILENO) < 0)
        || (stderrFD >= 0 && stderrFD != STDERR_FILENO && dup2(stderrFD, STDERR_FILENO) < 0)
        || (ownProcessGroup && setpgid(0, 0) != 0)) {
      failure[0] = PLSpawnFork;
    } else if (ownProcessGroup && pl_unblockSignals() != 0) {
      failure[0] = PLSpawnFork;
    } else if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0) {
      execve(path, argv, envp != NULL ? envp : environ);
      failure[0] = PLSpawnExec;
    }
    failure[1] = errno;
    ssize_t ignored = write(report[1], failure, sizeof failure);
    (void)ignored;
    _exit(127);
  }
  close(report[1]);
  int failure[2];
  ssize_t got;
  do {
    got = read(report[0], failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  close(report[0]);
  int status = 0;
  if (got == (ssize_t)sizeof failure) {
    while (waitpid(child, &status, __WALL) < 0 && errno == EINTR) {}
    *outError = failure[1];
    *outStage = (PLSpawnStage)failure[0];
    return NULL;
  }
  // The exec succeeded: the child is stopped by the SIGTRAP that follows it.
  pid_t waited;
  do {
    waited = waitpid(child, &status, __WALL);
  } while (waited < 0 && errno == EINTR);
  if (waited != child || !WIFSTOPPED(status)) {
    *outError = waited < 0 ? errno : ECHILD;
    *outStage = PLSpawnFirstStop;
    return NULL;
  }
  long options = PTRACE_O_TRACEEXIT | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
  PLTracee *tracee = pl_newTracee(child);
  if (tracee == NULL || ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)options) != 0
      || pl_addThread(tracee, child, PLThreadRunning) == NULL) {
    *outError = tracee == NULL ? ENOMEM : errno;
    *outStage = PLSpawnOptions;
    kill(child, SIGKILL);
    while (waitpid(child, &status, __WALL) < 0 && errno == EINTR) {}
    pl_free(tracee);
    return NULL;
  }
  // Like system(3): an interrupt typed at the terminal is for the program,
  // which reports it to us; LeakLab stays to report and clean up.
  struct sigaction ignore;
  memset(&ignore, 0, sizeof ignore);
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &tracee->savedInterrupt);
  sigaction(SIGQUIT, &ignore, &tracee->savedQuit);
  tracee->signalsSaved = true;
  return tracee;
}

// MARK: Running to the exit

static bool pl_allHeld(const PLTracee *tracee) {
  for (size_t index = 0; index < tracee->count; index++)
    if (tracee->threads[index].state == PLThreadRunning) return false;
  return true;
}

/// After the group exit, the run is over once no thread runs: every one is
/// held at its exit stop or gone. Says so in `end`.
static bool pl_endIfAllHeld(const PLTracee *tracee, PLEnd *end) {
  if (!tracee->groupExit || !pl_allHeld(tracee)) return false;
  end->kind = PLEndAtExit;
  end->status = tracee->exitStatus;
  return true;
}

static bool pl_isStopSignal(int signal) {
  return signal == SIGSTOP || signal == SIGTSTP || signal == SIGTTIN || signal == SIGTTOU;
}

/// Handles one wait status of a traced thread of a running program: returns
/// true when the run is over (`end` says how), false to go on waiting.
static bool pl_handleStatus(PLTracee *tracee, pid_t tid, int status, bool *signalled, PLEnd *end) {
  pid_t leader = tracee->pid;
  PLThread *thread = pl_addThread(tracee, tid, PLThreadRunning);
  if (thread == NULL) {
    end->kind = PLEndFailed;
    end->status = ENOMEM;
    return true;
  }
  if (WIFEXITED(status) || WIFSIGNALED(status)) {
    thread->state = PLThreadGone;
    // A thread that ends without an exit stop (killed by the group exit
    // before its first stop) may be the last one not yet held (measured: a
    // fresh-clone suite hung in waitpid, every thread of the probe held at
    // its exit but one whose end came last).
    if (tid != leader) return pl_endIfAllHeld(tracee, end);
    end->kind = WIFEXITED(status) ? PLEndExited : PLEndSignalled;
    end->status = WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
    return true;
  }
  if (!WIFSTOPPED(status)) return false;
  int signal = WSTOPSIG(status);
  int event = status >> 16;
  int deliver = 0;
  if (signal == SIGTRAP && event == PTRACE_EVENT_CLONE) {
    // A thread made as the process exits may be gone before it was made:
    // the event then names no thread (0), and nothing will report for it.
    unsigned long created = 0;
    if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &created) == 0 && created != 0)
      pl_addThread(tracee, (pid_t)created, PLThreadRunning);
  } else if (signal == SIGTRAP && event == PTRACE_EVENT_EXEC) {
    // A new program image: the other threads are gone.
    for (size_t index = 0; index < tracee->count; index++)
      if (tracee->threads[index].tid != leader) tracee->threads[index].state = PLThreadGone;
    thread = pl_thread(tracee, tid);
  } else if (signal == SIGTRAP && event == PTRACE_EVENT_EXIT) {
    unsigned long code = 0;
    ptrace(PTRACE_GETEVENTMSG, tid, NULL, &code);
    pl_readRegisters(thread);
    long call = thread->registersRead ? (long)thread->registers.orig_rax : -1;
    if (WIFSIGNALED((int)code)) {
      *signalled = true;  // killed: nothing to hold, let every thread go
    } else if (call == SYS_exit && !tracee->groupExit) {
      // One thread ending on its own (pthread_exit); the process goes on.
      // (A thread group leader that ends this way stays a zombie until the
      // others have gone: it will not stop again.)
      thread->state = PLThreadGone;
    } else {
      thread->state = PLThreadAtExit;
      if (call == SYS_exit_group) {
        tracee->groupExit = true;
        tracee->exitStatus = WEXITSTATUS((int)code);
      }
      return pl_endIfAllHeld(tracee, end);
    }
  } else if (event == 0 && !*signalled) {
    siginfo_t info;
    bool groupStop = pl_isStopSignal(signal) && ptrace(PTRACE_GETSIGINFO, tid, NULL, &info) != 0;
    // A new thread's first stop is its own SIGSTOP, as is the stop
    // `pl_stopAll` asked for; group stops are not honoured.
    if (!groupStop && signal != SIGSTOP) deliver = signal;
  }
  if (ptrace(PTRACE_CONT, tid, NULL, (void *)(long)deliver) != 0 && errno == ESRCH) thread->state = PLThreadGone;
  // A thread found gone here (or ended on its own) may have been the last
  // one not yet held after the group exit: then no event is left to wait
  // for (measured: a fresh-clone suite hung 18 minutes in waitpid with
  // every thread of the probe held at its exit).
  return pl_endIfAllHeld(tracee, end);
}

/// Lets the spawned program run, once.
static bool pl_start(PLTracee *tracee, PLEnd *end) {
  if (tracee->started) return true;
  tracee->started = true;
  if (ptrace(PTRACE_CONT, tracee->pid, NULL, NULL) != 0) {
    end->kind = PLEndFailed;
    end->status = errno;
    return false;
  }
  return true;
}

PLEnd pl_runToExit(PLTracee *tracee) {
  PLEnd end = {PLEndFailed, 0};
  if (tracee->hasEnd) return tracee->end;
  if (!pl_start(tracee, &end)) return end;
  bool signalled = false;
  for (;;) {
    int status = 0;
    pid_t tid = waitpid(-1, &status, __WALL);
    if (tid < 0) {
      if (errno == EINTR) continue;
      end.status = errno;
      return end;
    }
    if (pl_handleStatus(tracee, tid, status, &signalled, &end)) return end;
  }
}

PLEnd pl_runFor(PLTracee *tracee, int milliseconds) {
  PLEnd end = {PLEndFailed, 0};
  if (tracee->hasEnd) return tracee->end;
  if (!pl_start(tracee, &end)) return end;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long long deadline = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 + milliseconds;
  bool signalled = false;
  for (;;) {
    int status = 0;
    pid_t tid = waitpid(-1, &status, __WALL | WNOHANG);
    if (tid < 0) {
      if (errno == EINTR) continue;
      end.status = errno;
      return end;
    }
    if (tid > 0) {
      if (pl_handleStatus(tracee, tid, status, &signalled, &end)) return end;
      continue;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 >= deadline && !tracee->groupExit) {
      end.kind = PLEndRunning;
      end.status = 0;
      return end;
    }
    struct timespec pause = {0, 2 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
}

bool pl_stopAll(PLTracee *tracee) {
  if (tracee->hasEnd || tracee->groupExit) return false;
  pid_t leader = tracee->pid;
  for (size_t index = 0; index < tracee->count; index++) {
    PLThread *thread = &tracee->threads[index];
    if (thread->state != PLThreadRunning) continue;
    if (syscall(SYS_tgkill, leader, thread->tid, SIGSTOP) != 0 && errno == ESRCH) thread->state = PLThreadGone;
  }
  // Each running thread reports a stop; a new thread (cloned meanwhile) is waited for too.
  for (size_t index = 0; index < tracee->count; index++) {
    while (tracee->threads[index].state == PLThreadRunning) {
      pid_t tid = tracee->threads[index].tid;
      int status = 0;
      if (waitpid(tid, &status, __WALL) < 0) {
        if (errno == EINTR) continue;
        tracee->threads[index].state = PLThreadGone;
        break;
      }
      if (WIFEXITED(status) || WIFSIGNALED(status)) {
        tracee->threads[index].state = PLThreadGone;
        if (tid == leader) {
          tracee->hasEnd = true;
          tracee->end.kind = WIFEXITED(status) ? PLEndExited : PLEndSignalled;
          tracee->end.status = WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
          return false;
        }
        break;
      }
      if (!WIFSTOPPED(status)) continue;
      int signal = WSTOPSIG(status);
      int event = status >> 16;
      if (event == PTRACE_EVENT_CLONE) {
        unsigned long created = 0;
        if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &created) == 0 && created != 0) {
          // A traced clone starts with its own SIGSTOP: it stops by itself.
          pl_addThread(tracee, (pid_t)created, PLThreadRunning);
        }
        ptrace(PTRACE_CONT, tid, NULL, NULL);
        continue;
      }
      if (event == PTRACE_EVENT_EXIT) {
        // The program is ending: let the run see it.
        bool signalled = false;
        PLEnd end = {PLEndFailed, 0};
        if (pl_handleStatus(tracee, tid, status, &signalled, &end)) {
          tracee->hasEnd = true;
          tracee->end = end;
          return false;
        }
        if (tracee->groupExit) return false;
        continue;
      }
      if (event != 0) {
        ptrace(PTRACE_CONT, tid, NULL, NULL);
        continue;
      }
      // A signal-delivery stop: ours (SIGSTOP) is dropped at resume; another
      // is delivered then (ours, still pending, stops it later and is dropped).
      tracee->threads[index].pendingSignal = signal == SIGSTOP ? 0 : signal;
      tracee->threads[index].state = PLThreadStopped;
    }
  }
  for (size_t index = 0; index < tracee->count; index++)
    if (tracee->threads[index].state == PLThreadStopped) pl_readRegisters(&tracee->threads[index]);
  return true;
}

void pl_resumeAll(PLTracee *tracee) {
  for (size_t index = 0; index < tracee->count; index++) {
    PLThread *thread = &tracee->threads[index];
    if (thread->state != PLThreadStopped) continue;
    thread->state = PLThreadRunning;
    int signal = thread->pendingSignal;
    thread->pendingSignal = 0;
    if (ptrace(PTRACE_CONT, thread->tid, NULL, (void *)(long)signal) != 0 && errno == ESRCH)
      thread->state = PLThreadGone;
  }
}

PLEnd pl_finish(PLTracee *tracee) {
  PLEnd end = {PLEndFailed, 0};
  for (size_t index = 0; index < tracee->count; index++) {
    PLThread *thread = &tracee->threads[index];
    if (thread->state != PLThreadAtExit) continue;
    thread->state = PLThreadRunning;
    ptrace(PTRACE_CONT, thread->tid, NULL, NULL);
  }
  for (;;) {
    int status = 0;
    pid_t tid = waitpid(-1, &status, __WALL);
    if (tid < 0) {
      if (errno == EINTR) continue;
      end.status = errno;
      return end;
    }
    if (WIFSTOPPED(status)) {
      // A late exit stop of a thread we had not seen: let it go.
      ptrace(PTRACE_CONT, tid, NULL, NULL);
      continue;
    }
    if (tid != tracee->pid) continue;
    end.kind = WIFEXITED(status) ? PLEndExited : PLEndSignalled;
    end.status = WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
    return end;
  }
}

// MARK: Attach

/// Seizes every thread listed in /proc/PID/task that is not held yet;
/// returns how many were new, or -1 with errno set when the process
/// cannot be traced.
static long pl_seizeNewThreads(PLTracee *tracee) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", (int)tracee->pid);
  DIR *directory = opendir(path);
  if (directory == NULL) {
    errno = ESRCH;
    return -1;
  }
  long added = 0;
  int failure = 0;
  struct dirent *entry;
  while ((entry = readdir(directory)) != NULL) {
    char *end = NULL;
    long tid = strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != 0 || pl_thread(tracee, (pid_t)tid) != NULL) continue;
    if (ptrace(PTRACE_SEIZE, (pid_t)tid, NULL, (void *)(long)PTRACE_O_TRACECLONE) != 0) {
      if (errno == ESRCH) continue;  // ended meanwhile
      failure = errno;
      break;
    }
    if (pl_addThread(tracee, (pid_t)tid, PLThreadRunning) == NULL) {
      failure = ENOMEM;
      break;
    }
    ptrace(PTRACE_INTERRUPT, (pid_t)tid, NULL, NULL);
    added++;
  }
  closedir(directory);
  if (failure != 0) {
    errno = failure;
    return -1;
  }
  return added;
}

/// Waits until every seized thread has stopped, one thread at a time (never
/// `waitpid(-1)`: the caller's own children are none of our business).
static void pl_waitForStops(PLTracee *tracee) {
  for (size_t index = 0; index < tracee->count; index++) {
    while (tracee->threads[index].state == PLThreadRunning) {
      PLThread *thread = &tracee->threads[index];
      pid_t tid = thread->tid;
      int status = 0;
      if (waitpid(tid, &status, __WALL) < 0) {
        if (errno == EINTR) continue;
        thread->state = PLThreadGone;
        break;
      }
      if (WIFEXITED(status) || WIFSIGNALED(status)) {
        thread->state = PLThreadGone;
        break;
      }
      int event = status >> 16;
      if (event == PTRACE_EVENT_CLONE) {
        // The new thread is traced already; it is waited for in its turn.
        unsigned long created = 0;
        bool known = ptrace(PTRACE_GETEVENTMSG, tid, NULL, &created) == 0 && created != 0;
        ptrace(PTRACE_INTERRUPT, tid, NULL, NULL);
        ptrace(PTRACE_CONT, tid, NULL, NULL);
        if (known && pl_addThread(tracee, (pid_t)created, PLThreadRunning) == NULL) return;
        continue;
      }
      // A signal that arrived first is kept for the detach.
      if (event == 0) tracee->threads[index].pendingSignal = WSTOPSIG(status);
      tracee->threads[index].state = PLThreadStopped;
    }
  }
}

PLTracee *pl_attach(pid_t pid, int *outError) {
  *outError = 0;
  if (pid <= 0 || pid == getpid()) {
    *outError = pid <= 0 ? ESRCH : EPERM;
    return NULL;
  }
  PLTracee *tracee = pl_newTracee(pid);
  if (tracee == NULL) {
    *outError = ENOMEM;
    return NULL;
  }
  // Threads may start while we attach: list again until nothing is new.
  for (int round = 0; round < 64; round++) {
    long added = pl_seizeNewThreads(tracee);
    if (added < 0) {
      *outError = errno;
      pl_detach(tracee);
      pl_free(tracee);
      return NULL;
    }
    pl_waitForStops(tracee);
    if (added == 0) break;
  }
  if (pl_threadCount(tracee) == 0) {
    *outError = ESRCH;
    pl_detach(tracee);
    pl_free(tracee);
    return NULL;
  }
  for (size_t index = 0; index < tracee->count; index++)
    if (tracee->threads[index].state == PLThreadStopped) pl_readRegisters(&tracee->threads[index]);
  return tracee;
}

void pl_detach(PLTracee *tracee) {
  for (size_t index = 0; index < tracee->count; index++) {
    PLThread *thread = &tracee->threads[index];
    if (thread->state == PLThreadGone) continue;
    if (thread->state == PLThreadRunning) {
      // Seized but never seen stopped: it must stop before it can be let go.
      int status = 0;
      ptrace(PTRACE_INTERRUPT, thread->tid, NULL, NULL);
      if (waitpid(thread->tid, &status, __WALL) < 0 || !WIFSTOPPED(status)) continue;
    }
    ptrace(PTRACE_DETACH, thread->tid, NULL, (void *)(long)thread->pendingSignal);
    thread->state = PLThreadGone;
  }
}
