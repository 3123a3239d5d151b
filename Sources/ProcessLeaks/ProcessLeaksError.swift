/// Why a whole-program leak check could not be made: each reads as one line.
///
/// ```swift
/// do { … } catch { print("leaklab: \(error)") }
/// // leaklab: ptrace is not permitted here (Operation not permitted): …
/// ```
public enum ProcessLeaksError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kernel refused to let LeakLab trace (a container without
  /// CAP_SYS_PTRACE, Yama's ptrace_scope, another tracer already attached).
  case ptraceNotPermitted(detail: String)
  /// The program could not be started.
  case cannotRun(String, reason: String)
  /// No process has this id.
  case noSuchProcess(Int32)
  /// No image of the process carries Swift reflection metadata.
  case notSwift(String)
  /// The process runs a Swift runtime other than the one LeakLab was built with.
  case differentRuntime(target: String, ours: String)
  /// A system call failed.
  case system(String, detail: String)

  public var description: String {
    switch self {
    case .ptraceNotPermitted(let detail):
      "ptrace is not permitted here (\(detail)): run as the same user with ptrace allowed "
        + "(root, CAP_SYS_PTRACE, or kernel.yama.ptrace_scope=0), and with no debugger attached"
    case .cannotRun(let program, let reason): "cannot run \(program): \(reason)"
    case .noSuchProcess(let pid): "no process with id \(pid)"
    case .notSwift(let program): "\(program) is not a Swift program (no image has Swift reflection metadata)"
    case .differentRuntime(let target, let ours):
      "the program uses a different Swift runtime (\(target)) from leaklab's (\(ours)): "
        + "run the leaklab built with the program's toolchain"
    case .system(let what, let detail): "\(what): \(detail)"
    }
  }
}
