/// A source of time and a place to run delayed work on the main actor.
///
/// Everything in LeakLab that waits — the leak detector's grace delay, a
/// screen's delayed dispatch, a repeating timer, a step script's `wait` — goes
/// through a scheduler, so the same code runs in real time on the main queue
/// (``LiveScheduler``) and instantly in tests (``ManualScheduler``).
///
/// ```swift
/// let scheduler = ManualScheduler()
/// var fired = false
/// scheduler.schedule(after: .seconds(10)) { fired = true }
/// scheduler.advance(by: .seconds(10))  // runs the work, no sleeping
/// ```
public protocol Scheduler: AnyObject, Sendable {
  /// The time elapsed since the scheduler was created.
  var now: Duration { get }

  /// ``now`` in whole nanoseconds: cheaper to read and compare on hot paths
  /// (a `Duration` is 128 bits and its arithmetic is not inlined).
  var nowNanoseconds: Int64 { get }

  /// Runs `work` on the main actor once `delay` has elapsed.
  ///
  /// - Returns: a handle that cancels the work if it has not run yet.
  @discardableResult
  func schedule(
    after delay: Duration,
    _ work: @escaping @MainActor @Sendable () -> Void
  ) -> ScheduledWork

  /// The work that is scheduled and has not run yet, in deadline order.
  ///
  /// Retain-path tools read this to explain objects kept alive by pending work.
  var pendingWork: [ScheduledWork] { get }

  /// Runs `work` once `delay` has elapsed, like ``schedule(after:_:)``, for
  /// work that only *looks* for a change (a poll): on simulated time it may
  /// run later, once something else has run, because nothing can have changed
  /// before then.
  ///
  /// ``LiveScheduler`` runs it on time. ``ManualScheduler`` runs a due poll
  /// only if other work ran (or the test called in) since that poll last ran;
  /// otherwise the poll waits and runs right after the next piece of other
  /// work. So a detector re-checking an open leak every 100 ms costs nothing
  /// per simulated second when nothing happens.
  @discardableResult
  func schedulePoll(
    after delay: Duration,
    _ work: @escaping @MainActor @Sendable () -> Void
  ) -> ScheduledWork
}

extension Scheduler {
  public var nowNanoseconds: Int64 { now.wholeNanoseconds }

  /// Runs the poll on time, as ordinary work.
  @discardableResult
  public func schedulePoll(
    after delay: Duration,
    _ work: @escaping @MainActor @Sendable () -> Void
  ) -> ScheduledWork {
    schedule(after: delay, work)
  }

  /// Runs `work` every `interval` until the returned handle is cancelled.
  ///
  /// Like a repeating `Timer`, the scheduler keeps the block — and whatever it
  /// captures — alive until the timer is invalidated.
  @discardableResult
  public func scheduleRepeating(
    every interval: Duration,
    _ work: @escaping @MainActor @Sendable () -> Void
  ) -> RepeatingWork {
    let timer = RepeatingWork(interval: interval, work: work)
    timer.arm(on: self)
    return timer
  }
}

extension Duration {
  /// The duration in whole nanoseconds (sub-nanosecond parts dropped).
  public var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}
