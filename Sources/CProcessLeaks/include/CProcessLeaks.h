// What `leaklab leaks` needs from the system that Swift cannot call cleanly:
// ptrace (variadic in glibc), fork + exec of a traced child, and the
// callbacks that let the Remote Mirror library read *another* process.
#ifndef LEAKLAB_CPROCESSLEAKS_H
#define LEAKLAB_CPROCESSLEAKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Process control (ProcessControl.c)

/// A traced process: the threads LeakLab controls and the state of each.
typedef struct PLTracee PLTracee;

/// The general-purpose registers of one thread (x86_64 `user_regs_struct`:
/// 27 words, among them every integer register, `rip`, `rsp` and `fs_base`).
enum { PLRegisterWords = 27 };

/// How a traced run ended.
typedef enum PLEndKind {
  /// Every thread is stopped at its exit with the process's memory intact
  /// (`status` is the exit status the program asked for).
  PLEndAtExit = 0,
  /// The process ended without an exit stop (`status` is its exit status).
  PLEndExited = 1,
  /// The process was killed by a signal (`status` is the signal).
  PLEndSignalled = 2,
  /// A system call failed (`status` is its errno).
  PLEndFailed = 3,
  /// The program is still running (`pl_runFor`'s time is up).
  PLEndRunning = 4,
} PLEndKind;

typedef struct PLEnd {
  PLEndKind kind;
  int status;
} PLEnd;

/// Which step of starting a program failed.
typedef enum PLSpawnStage {
  PLSpawnFork = 1,
  PLSpawnTraceMe = 2,
  PLSpawnExec = 3,
  PLSpawnFirstStop = 4,
  PLSpawnOptions = 5,
} PLSpawnStage;

/// Starts `path` with `argv` (NULL-terminated) and `envp` (NULL-terminated;
/// NULL: this process's environment), traced from its first instruction: every thread it creates
/// is traced too, and each thread stops before it exits. The program is not
/// running yet when this returns; `pl_runToExit` starts it. The program's
/// standard input, output and error are `stdinFD`, `stdoutFD`, `stderrFD`
/// when not -1 (this process's standard error, say), else this process's;
/// with `ownProcessGroup` it leads a process group of its own (the
/// terminal's Ctrl-C does not reach it). On failure returns NULL with the
/// errno in `outError` and the failing step in `outStage`.
PLTracee *pl_spawn(
    const char *path, char *const argv[], char *const envp[], int stdinFD, int stdoutFD, int stderrFD,
    bool ownProcessGroup, int *outError, PLSpawnStage *outStage);

/// Runs a spawned program until it exits through `exit` / `exit_group`; then
/// every thread is held stopped at its exit stop, memory intact. Signals
/// the program receives are delivered to it unchanged; job-control stops are
/// not honoured while it is traced. Returns how the run ended.
PLEnd pl_runToExit(PLTracee *tracee);

/// Like `pl_runToExit`, for at most `milliseconds`: returns `PLEndRunning`
/// when the time is up and the program is still running (an exit under
/// way is always waited for). Call it again to go on.
PLEnd pl_runFor(PLTracee *tracee, int milliseconds);

/// Stops every thread of a spawned program that `pl_runFor` left running
/// (a SIGSTOP to each, dropped at resume) and reads their registers; false
/// when the program is ending (the next `pl_runFor` says how).
bool pl_stopAll(PLTracee *tracee);

/// Lets the threads `pl_stopAll` stopped run on, with any other signal that
/// arrived meanwhile.
void pl_resumeAll(PLTracee *tracee);

/// Lets a program held at its exit finish, and waits for it. Returns its exit
/// status (`PLEndExited`) or the signal that ended it (`PLEndSignalled`).
PLEnd pl_finish(PLTracee *tracee);

/// Attaches to every thread of the running process `pid` without sending it
/// a signal (`PTRACE_SEIZE` + `PTRACE_INTERRUPT`) and waits until all are
/// stopped. Returns NULL with the errno in `outError` (EPERM: not permitted,
/// ESRCH: no such process).
PLTracee *pl_attach(pid_t pid, int *outError);

/// Detaches from every thread of an attached process, delivering any signal
/// that arrived while it was stopped; the process runs on unchanged.
void pl_detach(PLTracee *tracee);

/// The process id (the thread group leader).
pid_t pl_pid(const PLTracee *tracee);

/// The number of threads held stopped.
size_t pl_threadCount(const PLTracee *tracee);

/// The thread id of the `index`th stopped thread and its registers (false
/// when they cannot be read).
bool pl_threadRegisters(const PLTracee *tracee, size_t index, pid_t *outThread, uint64_t words[PLRegisterWords]);

/// Releases the bookkeeping (not the process: finish or detach first).
void pl_free(PLTracee *tracee);

// MARK: Call stacks (Unwind.c)

/// Unwinds the call stack of the ptrace-stopped thread `thread` from its
/// images' call frame information: writes each frame's instruction pointer
/// and stack pointer (innermost first) and returns the number of frames.
size_t pl_unwind(pid_t thread, uint64_t *instructionPointers, uint64_t *stackPointers, size_t capacity);

// MARK: Remote Mirror over another process (RemoteContext.c)


#ifdef __cplusplus
}
#endif

#endif
