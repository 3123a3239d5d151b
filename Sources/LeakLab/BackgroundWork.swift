import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One low-priority thread that runs work items in order, away from the
/// main thread: the app's slow explanations (a scan of the whole heap)
/// never hold up a frame, a key or a detection.
///
/// The thread runs at nice 10 (Linux priorities are per thread), so on a
/// busy machine the main thread keeps the CPU it needs; it lives as long as
/// the process.
///
/// ```swift
/// BackgroundWork.shared.enqueue { print(explainer.explain(object)) }
/// ```
final class BackgroundWork: Sendable {
  /// The app's one background thread.
  static let shared = BackgroundWork()

  private let condition = NSCondition()
  // Guarded by `condition`.
  private nonisolated(unsafe) var pending: [@Sendable () -> Void] = []

  private init() {
    let thread = Thread { [self] in run() }
    thread.name = "leaklab.background"
    thread.start()
  }

  /// Runs `work` on the background thread after the work queued before it.
  func enqueue(_ work: @escaping @Sendable () -> Void) {
    condition.lock()
    pending.append(work)
    condition.signal()
    condition.unlock()
  }

  private func run() {
    // 0: the calling thread (Linux keeps a nice value per thread).
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    while true {
      condition.lock()
      while pending.isEmpty { condition.wait() }
      let work = pending.removeFirst()
      condition.unlock()
      work()
    }
  }
}
