import Foundation

/// A repeating timer driven by a ``Scheduler``; created by
/// ``Scheduler/scheduleRepeating(every:_:)``.
///
/// Like `Foundation.Timer`, a repeating work item keeps its block alive until
/// ``invalidate()`` is called.
public final class RepeatingWork: @unchecked Sendable {
  /// The time between two runs.
  public let interval: Duration
  private var work: (@MainActor @Sendable () -> Void)?
  // The scheduler holds the pending step (and the step holds this timer):
  // the timer only needs to reach it to cancel it.
  private weak var next: ScheduledWork?
  private let lock = NSLock()

  init(interval: Duration, work: @escaping @MainActor @Sendable () -> Void) {
    precondition(interval > .zero, "a repeating interval must be positive")
    self.interval = interval
    self.work = work
  }

  /// Whether the timer still fires.
  public var isValid: Bool { lock.withLock { work != nil } }

  /// Stops the timer and releases its block.
  public func invalidate() {
    let (dropped, pending) = lock.withLock {
      defer {
        work = nil
        next = nil
      }
      return (work, next)
    }
    pending?.cancel()
    _ = dropped
  }

  func arm(on scheduler: any Scheduler) {
    // The scheduled step holds the timer strongly, as a run loop holds a Timer,
    // but not the scheduler that holds the step: a scheduler nobody keeps ends
    // with its timers, as a run loop's timers end with the run loop.
    let step = scheduler.schedule(after: interval) { [self, weak scheduler] in
      guard let scheduler, let body = lock.withLock({ work }) else { return }
      arm(on: scheduler)
      body()
    }
    lock.withLock {
      if work == nil { step.cancel() } else { next = step }
    }
  }
}
