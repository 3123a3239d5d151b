import CSpawn
import Foundation

/// Runs a program with `posix_spawn`, collects its output and waits for it with `waitpid`.
///
/// Unlike `Foundation.Process`, waiting does not hang when the program leaves
/// a daemon behind (a tmux server). The child starts with no blocked signals
/// and default signal actions, whatever the calling thread had, and with
/// standard input from `/dev/null`.
///
/// ```swift
/// let result = try ChildProcess.run(["tmux", "-V"], environment: ProcessInfo.processInfo.environment)
/// print(result.status, result.standardOutput)  // 0 tmux 3.3a
/// ```
public struct ChildProcess {
  /// How a finished program ended and what it wrote.
  public struct Result: Sendable {
    /// The exit status, or 128 + signal number when a signal ended it.
    public var status: Int32
    /// Everything the program wrote to standard output.
    public var standardOutput: String
    /// Everything the program wrote to standard error.
    public var standardError: String
  }

  /// Why a program could not be run.
  public struct LaunchError: Error, CustomStringConvertible {
    /// The program that could not be run.
    public var program: String
    /// The `errno` value of the failure.
    public var code: Int32
    public var description: String { "cannot run \(program): \(String(cString: strerror(code)))" }
  }

  /// Runs `arguments` (the program is looked up in `PATH` unless it contains a `/`).
  ///
  /// - Parameters:
  ///   - environment: the complete environment of the child.
  ///   - timeout: after this long the child is killed with SIGKILL.
  public static func run(
    _ arguments: [String], environment: [String: String], timeout: Duration = .seconds(30)
  ) throws(LaunchError) -> Result {
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    guard cs_pipe_cloexec(&output) == 0, cs_pipe_cloexec(&errors) == 0 else {
      throw LaunchError(program: arguments[0], code: errno)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let code = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
    close(output[1])
    close(errors[1])
    guard code == 0 else {
      close(output[0])
      close(errors[0])
      throw LaunchError(program: arguments[0], code: code)
    }
    let (standardOutput, standardError) = collect(output[0], errors[0], from: pid, timeout: timeout)
    return Result(status: wait(for: pid), standardOutput: standardOutput, standardError: standardError)
  }

  /// Reads both pipes to their end (killing the child at the deadline), then closes them.
  private static func collect(_ out: Int32, _ err: Int32, from pid: pid_t, timeout: Duration) -> (
    String, String
  ) {
    var data: [Int32: [UInt8]] = [out: [], err: []]
    var open = [out, err]
    let deadline = ContinuousClock.now + timeout
    var killed = false
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !open.isEmpty {
      var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let remaining = deadline - ContinuousClock.now
      let milliseconds = killed ? 1000 : max(0, remaining.wholeMilliseconds + 1)
      let ready = poll(&fds, nfds_t(fds.count), milliseconds)
      if ready == 0 && !killed {
        kill(pid, SIGKILL)
        killed = true
        continue
      }
      if ready < 0 && errno != EINTR { break }
      for entry in fds where entry.revents != 0 {
        let count = read(entry.fd, &buffer, buffer.count)
        if count > 0 {
          data[entry.fd, default: []].append(contentsOf: buffer[0..<count])
        } else if count == 0 || errno != EINTR {
          open.removeAll { $0 == entry.fd }
        }
      }
    }
    close(out)
    close(err)
    return (
      String(decoding: data[out] ?? [], as: UTF8.self), String(decoding: data[err] ?? [], as: UTF8.self)
    )
  }

  /// Waits for the child to end: its exit status, or 128 + the signal that ended it.
  private static func wait(for pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
