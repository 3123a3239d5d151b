import LeakClock

/// A scheduler whose timer runs work a little before its clock reads the
/// deadline, as the live app's can: `LiveScheduler.now` reads the kernel's
/// coarse monotonic clock, which lags the precise clock libdispatch's timers
/// fire on by up to one tick (4 ms here).
public final class EarlyTimerScheduler: Scheduler, @unchecked Sendable {
  public let base = ManualScheduler()
  /// How much earlier than its deadline work runs (when its delay is longer than that).
  public let earliness: Duration
  /// Work due before this time runs on time: a live clock is only sometimes behind.
  public let onTimeUntil: Duration

  public init(earliness: Duration = .milliseconds(3), onTimeUntil: Duration = .zero) {
    self.earliness = earliness
    self.onTimeUntil = onTimeUntil
  }

  public var now: Duration { base.now }

  @discardableResult
  public func schedule(after delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void)
    -> ScheduledWork
  {
    let isEarly = delay > earliness && base.now + delay >= onTimeUntil
    return base.schedule(after: isEarly ? delay - earliness : delay, work)
  }

  public var pendingWork: [ScheduledWork] { base.pendingWork }

  @MainActor public func advance(_ seconds: Double) {
    base.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
  }
}
