import HeapModel
import ProcessLeaks

/// Where `leaklab watch` gets its snapshots: a real process
/// (``ProcessLeaks/WatchedProcess``), or in tests a source that hands out
/// censuses made up in advance. Called on a background queue, one call at a time.
///
/// ```swift
/// let model = WatchModel(source: try WatchedProcess.attach(pid: pid))
/// ```
public protocol WatchSource: Sendable {
  /// The process as the header names it.
  var process: WatchState.Process { get }
  /// How the process ended ("exited with status 3"), or nil while it runs.
  func endingDescription() -> String?
  /// The snapshot taken at the program's exit (its leaks at exit), when there is one.
  var exitSnapshot: WatchSnapshot? { get }
  /// A census and the leaks, read while the process is stopped.
  func snapshot() throws -> WatchSnapshot
  /// Why one instance of `subject` is alive, and where it was allocated when
  /// that was recorded (nil: there is none any more).
  func explain(_ subject: WatchedProcess.Subject) throws -> WatchedProcess.Explanation?
}

extension WatchedProcess: WatchSource {
  public var process: WatchState.Process {
    WatchState.Process(
      name: name, pid: pid, isLaunched: isLaunched, outputPath: outputPath, recordsStacks: recordsStacks)
  }

  public func endingDescription() -> String? {
    ending().map { "\($0)" }
  }
}
