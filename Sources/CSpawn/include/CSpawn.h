// What TerminalAutomation's ChildProcess needs from C and Swift cannot import.
#ifndef CSPAWN_H
#define CSPAWN_H

/// pipe2(fds, O_CLOEXEC): a pipe whose ends are not inherited by spawned programs
/// (glibc declares pipe2 only under _GNU_SOURCE). Returns 0, or -1 with errno set.
int cs_pipe_cloexec(int fds[2]);

#endif
