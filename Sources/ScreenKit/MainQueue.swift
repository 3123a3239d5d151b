import LeakClock

/// The main queue as screens see it, like `DispatchQueue.main`, on an injected scheduler.
///
/// Code reads like UIKit code — `mainQueue.asyncAfter(.seconds(10)) { … }` —
/// while tests move time with a ``ManualScheduler``.
///
/// ```swift
/// mainQueue.asyncAfter(.seconds(10)) { [weak self] in
///   self?.statusLabel.text = "Synced"
/// }
/// ```
public struct MainQueue: Sendable {
  /// The scheduler behind the queue.
  public let scheduler: any Scheduler

  /// Creates a main queue on `scheduler`.
  public init(scheduler: any Scheduler) {
    self.scheduler = scheduler
  }

  /// Runs `work` after `delay`. The queue holds the block, and what it
  /// captures, until then.
  @discardableResult
  public func asyncAfter(_ delay: Duration, execute work: @escaping @MainActor @Sendable () -> Void)
    -> ScheduledWork
  {
    scheduler.schedule(after: delay, work)
  }

  /// Runs `work` on the next turn of the main queue.
  public func async(execute work: @escaping @MainActor @Sendable () -> Void) {
    scheduler.schedule(after: .zero, work)
  }

  /// Starts a repeating timer, like `Timer.scheduledTimer(withTimeInterval:repeats:block:)`.
  /// The timer holds its block until ``RepeatingWork/invalidate()``.
  @discardableResult
  public func scheduledTimer(
    withTimeInterval interval: Duration, block: @escaping @MainActor @Sendable () -> Void
  ) -> RepeatingWork {
    scheduler.scheduleRepeating(every: interval, block)
  }
}
