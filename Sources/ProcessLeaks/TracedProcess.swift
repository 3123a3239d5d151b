import CProcessLeaks

#if canImport(Glibc)
  import Glibc
#endif

/// A process LeakLab controls with ptrace: a program it started and holds at
/// its exit, or a running process it attached to.
///
/// Started programs run unchanged (nothing is linked in, nothing is
/// instrumented, unless the given environment preloads something) until they call `exit`; then every thread is held at its
/// exit stop while the memory is still there. Attached processes are stopped
/// without a signal and let go exactly as they were.
///
/// ```swift
/// let process = try TracedProcess.launch("/usr/local/bin/tool", arguments: ["--once"])
/// switch try process.runToExit() {
/// case .atExit(let status):
///   let threads = process.threads        // registers of every thread: roots
///   …                                    // read the memory of process.pid
///   _ = try process.finish()             // the program exits with `status`
/// case .ended(let ending):
///   print(ending)                        // killed by a signal, say
/// }
/// ```
///
/// A launched program is waited for with `waitpid(-1)`: a process that
/// launches one must not run other children at the same time.
public final class TracedProcess {
  private let tracee: OpaquePointer
  private var isReleased = false
  /// Whether LeakLab started the program (else it attached to it).
  public let isLaunched: Bool

  /// The process id.
  public var pid: Int32 { pl_pid(tracee) }

  private init(tracee: OpaquePointer, isLaunched: Bool) {
    self.tracee = tracee
    self.isLaunched = isLaunched
  }

  deinit {
    if !isReleased, !isLaunched { pl_detach(tracee) }
    pl_free(tracee)
  }

  // MARK: Launching

  /// Where a launched program's standard output goes.
  public enum ProgramOutput: Sendable, Hashable {
    /// Where this process's goes.
    case inherited
    /// To this process's standard error: this process's standard output is
    /// a report's (`leaklab leaks --json -- PROGRAM | jq`).
    case standardError
    /// Standard output and error appended to this file, standard input from
    /// `/dev/null`, in a process group of its own: the terminal is someone
    /// else's (`leaklab watch`).
    case file(String)
  }

  /// Starts `executable` (a path, or a name looked up in `PATH`) with
  /// `arguments`, stopped before its first instruction; `environment`
  /// (`NAME=value` strings) replaces this process's when given.
  public static func launch(
    _ executable: String, arguments: [String], environment: [String]? = nil,
    output: ProgramOutput = .inherited
  ) throws(ProcessLeaksError) -> TracedProcess {
    guard let path = ExecutableLookup.resolve(executable) else {
      throw .cannotRun(executable, reason: ExecutableLookup.whyNot(executable))
    }
    var error: Int32 = 0
    var stage = PLSpawnStage(rawValue: 0)
    var stdinFD: Int32 = -1
    var stdoutFD: Int32 = output == .standardError ? STDERR_FILENO : -1
    var stderrFD: Int32 = -1
    if case .file(let file) = output {
      stdoutFD = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
      guard stdoutFD >= 0 else {
        throw .cannotRun(executable, reason: "cannot open \(file): \(Self.describe(errno: errno))")
      }
      stdinFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
      stderrFD = stdoutFD
    }
    defer {
      if case .file = output {
        close(stdoutFD)
        if stdinFD >= 0 { close(stdinFD) }
      }
    }
    let ownGroup: Bool = if case .file = output { true } else { false }
    let tracee = withCStrings([path] + arguments) { argv in
      guard let environment else {
        return pl_spawn(path, argv, nil, stdinFD, stdoutFD, stderrFD, ownGroup, &error, &stage)
      }
      return withCStrings(environment) { envp in
        pl_spawn(path, argv, envp, stdinFD, stdoutFD, stderrFD, ownGroup, &error, &stage)
      }
    }
    guard let tracee else {
      switch stage {
      case PLSpawnTraceMe: throw .ptraceNotPermitted(detail: Self.describe(errno: error))
      case PLSpawnExec: throw .cannotRun(executable, reason: Self.describe(errno: error))
      default: throw .system("cannot start \(executable)", detail: Self.describe(errno: error))
      }
    }
    return TracedProcess(tracee: tracee, isLaunched: true)
  }

  /// How a launched program's run ended.
  public enum RunOutcome: Sendable, Equatable {
    /// Held at its exit, memory intact; `status` is what it passed to `exit`.
    case atExit(status: Int32)
    /// It ended without being held (killed by a signal, say).
    case ended(ProcessEnding)
  }

  /// Lets a launched program run until it exits.
  public func runToExit() throws(ProcessLeaksError) -> RunOutcome {
    let end = pl_runToExit(tracee)
    switch end.kind {
    case PLEndAtExit: return .atExit(status: end.status)
    case PLEndExited: return .ended(.exited(end.status))
    case PLEndSignalled: return .ended(.signalled(end.status))
    default: throw .system("lost track of the program", detail: Self.describe(errno: end.status))
    }
  }

  /// How a slice of a launched program's run ended.
  public enum SliceOutcome: Sendable, Equatable {
    /// Still running.
    case running
    /// It ended: as ``RunOutcome`` says.
    case ended(RunOutcome)
  }

  /// Lets a launched program run for at most `milliseconds` (an exit under
  /// way is waited for): the loop of a tracer that also stops it now and then
  /// (``stopAll()``). Every call must come from the thread that launched it.
  public func run(forMilliseconds milliseconds: Int32) throws(ProcessLeaksError) -> SliceOutcome {
    let end = pl_runFor(tracee, milliseconds)
    switch end.kind {
    case PLEndRunning: return .running
    case PLEndAtExit: return .ended(.atExit(status: end.status))
    case PLEndExited: return .ended(.ended(.exited(end.status)))
    case PLEndSignalled: return .ended(.ended(.signalled(end.status)))
    default: throw .system("lost track of the program", detail: Self.describe(errno: end.status))
    }
  }

  /// Stops every thread of a launched program between two slices of its run
  /// (``run(forMilliseconds:)``) and reads their registers; false when it is
  /// ending (the next slice says how). ``resumeAll()`` lets it go on.
  public func stopAll() -> Bool { pl_stopAll(tracee) }

  /// Lets the threads ``stopAll()`` stopped run on.
  public func resumeAll() { pl_resumeAll(tracee) }

  /// Lets a program held at its exit finish; returns how it ended.
  public func finish() throws(ProcessLeaksError) -> ProcessEnding {
    isReleased = true
    let end = pl_finish(tracee)
    switch end.kind {
    case PLEndExited: return .exited(end.status)
    case PLEndSignalled: return .signalled(end.status)
    default: throw .system("lost track of the program", detail: Self.describe(errno: end.status))
    }
  }

  // MARK: Attaching

  /// Stops every thread of the running process `pid` without sending it a
  /// signal. ``detach()`` (or dropping the value) lets it run on unchanged.
  public static func attach(pid: Int32) throws(ProcessLeaksError) -> TracedProcess {
    var error: Int32 = 0
    guard let tracee = pl_attach(pid, &error) else {
      switch error {
      case ESRCH: throw .noSuchProcess(pid)
      case EPERM, EACCES: throw .ptraceNotPermitted(detail: Self.describe(errno: error))
      default: throw .system("cannot attach to process \(pid)", detail: Self.describe(errno: error))
      }
    }
    return TracedProcess(tracee: tracee, isLaunched: false)
  }

  /// Lets an attached process run on, delivering any signal that arrived meanwhile.
  public func detach() {
    guard !isReleased, !isLaunched else { return }
    isReleased = true
    pl_detach(tracee)
  }

  // MARK: Threads

  /// Every stopped thread with its registers (a thread whose registers could
  /// not be read has none).
  public var threads: [StoppedThread] {
    (0..<pl_threadCount(tracee)).map { index in
      var thread: pid_t = 0
      var words = [UInt64](repeating: 0, count: Int(PLRegisterWords))
      let read = words.withUnsafeMutableBufferPointer {
        pl_threadRegisters(tracee, index, &thread, $0.baseAddress)
      }
      return StoppedThread(thread: thread, words: read ? words.map { UInt($0) } : [])
    }
  }

  /// The call stack of a stopped thread, innermost frame first, unwound with
  /// its images' call frame information; empty when it cannot be unwound.
  public func callStack(of thread: Int32) -> [StackFrame] {
    let capacity = 256
    var instructions = [UInt64](repeating: 0, count: capacity)
    var stacks = [UInt64](repeating: 0, count: capacity)
    let count = pl_unwind(thread, &instructions, &stacks, capacity)
    return (0..<count).map { StackFrame(instruction: UInt(instructions[$0]), stack: UInt(stacks[$0])) }
  }

  static func describe(errno code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// How a process ended.
public enum ProcessEnding: Sendable, Hashable, CustomStringConvertible {
  /// It exited with this status.
  case exited(Int32)
  /// A signal killed it.
  case signalled(Int32)

  /// The status a shell reports for it: the exit status, or 128 + the signal.
  public var shellStatus: Int32 {
    switch self {
    case .exited(let status): status
    case .signalled(let signal): 128 + signal
    }
  }

  public var description: String {
    switch self {
    case .exited(let status): "exited with status \(status)"
    case .signalled(let signal): "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
    }
  }
}

/// One thread held stopped, with its registers: every word is a root of the heap.
public struct StoppedThread: Sendable, Equatable {
  /// The thread id.
  public var thread: Int32
  /// The x86_64 `user_regs_struct` words (empty if they could not be read).
  public var words: [UInt]

  /// Creates the registers of a thread.
  public init(thread: Int32, words: [UInt]) {
    self.thread = thread
    self.words = words
  }

  /// The thread pointer (`fs_base`): where glibc keeps the thread's TLS block.
  public var threadPointer: UInt? { words.count == Int(PLRegisterWords) ? words[21] : nil }
  /// The stack pointer (`rsp`).
  public var stackPointer: UInt? { words.count == Int(PLRegisterWords) ? words[19] : nil }
  /// Whether the thread stopped inside a system call (`orig_rax` is not -1):
  /// then the 128-byte red zone below its stack pointer holds nothing live.
  public var isInSystemCall: Bool { words.count == Int(PLRegisterWords) && words[15] != UInt.max }
}

/// One frame of a call stack.
public struct StackFrame: Sendable, Hashable {
  /// Where the frame's function is executing (a return address, except in the innermost frame).
  public var instruction: UInt
  /// The stack pointer in that frame.
  public var stack: UInt
}

/// Calls `body` with a NULL-terminated C array of `strings`.
func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
  let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
  defer { copies.forEach { free($0) } }
  return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
