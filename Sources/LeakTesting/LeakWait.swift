import Foundation
import LeakClock
import LeakDetector

/// How a leak check waits for objects to go away: not at all, on a manual
/// clock, or in real time.
///
/// Objects released synchronously need no wait (``immediately``, the default).
/// Objects kept alive for a while by scheduled work — a grace delay, an
/// `asyncAfter`, an animation — need one: on a ``LeakClock/ManualScheduler``
/// the wait advances the clock step by step until the condition holds or the
/// timeout is reached, which takes no real time; in real time it polls until
/// the timeout.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// assertDeallocation(of: { SyncScreen(scheduler: scheduler) }, wait: .manual(scheduler, timeout: .seconds(10)))
/// ```
///
/// A synchronous real-time wait runs the main run loop in small slices; that
/// works in XCTest, which runs tests on the main thread's run loop. Under Swift
/// Testing a `@MainActor` test *is* main-queue work, so use the `async`
/// overloads (`await assertDeallocation(…)`), which sleep instead.
public struct LeakWait: Sendable {
  enum Clock: Sendable {
    case none
    case manual(ManualScheduler)
    case realTime
  }

  let clock: Clock
  /// How long to wait at most.
  public let timeout: Duration
  /// How far the manual clock moves per step, or how long one real-time poll lasts.
  public let interval: Duration

  /// Checks once, without waiting.
  public static let immediately = LeakWait(clock: .none, timeout: .zero, interval: .zero)

  /// Advances `scheduler` by `step` until the condition holds or `timeout` has passed on it.
  public static func manual(
    _ scheduler: ManualScheduler, timeout: Duration = .seconds(2), step: Duration = .milliseconds(100)
  ) -> LeakWait {
    precondition(step > .zero, "a manual wait needs a positive step")
    return LeakWait(clock: .manual(scheduler), timeout: timeout, interval: step)
  }

  /// Polls every `poll` in real time until the condition holds or `timeout` has passed.
  public static func realTime(timeout: Duration = .seconds(2), poll: Duration = .milliseconds(5)) -> LeakWait
  {
    precondition(poll > .zero, "a real-time wait needs a positive poll interval")
    return LeakWait(clock: .realTime, timeout: timeout, interval: poll)
  }

  /// Waits on `scheduler`'s clock: ``manual(_:timeout:step:)`` for a manual
  /// scheduler, ``realTime(timeout:poll:)`` for any other.
  public static func on(
    _ scheduler: any Scheduler, timeout: Duration = .seconds(2), step: Duration = .milliseconds(100)
  ) -> LeakWait {
    if let manual = scheduler as? ManualScheduler {
      return .manual(manual, timeout: timeout, step: step)
    }
    return .realTime(timeout: timeout, poll: min(step, .milliseconds(10)))
  }

  /// Waits until `condition` holds or the timeout is reached; returns whether it holds.
  ///
  /// ```swift
  /// let gone = LeakWait.manual(scheduler).until { weakScreen == nil }
  /// ```
  @_disfavoredOverload
  @MainActor
  @discardableResult
  public func until(_ condition: () -> Bool) -> Bool {
    switch clock {
    case .none:
      return condition()
    case .manual(let scheduler):
      var waited = Duration.zero
      while !condition() {
        guard advance(scheduler, waited: &waited) else { return false }
      }
      return true
    case .realTime:
      let deadline = ContinuousClock.now + timeout
      while !condition() {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return false }
        let until = Date(timeIntervalSinceNow: min(interval, left).seconds)
        if !RunLoop.main.run(mode: .default, before: until) {
          Thread.sleep(until: until)
        }
      }
      return true
    }
  }

  /// Advances a manual clock by one step; `false` once the timeout is used up.
  @MainActor
  private func advance(_ scheduler: ManualScheduler, waited: inout Duration) -> Bool {
    guard waited < timeout else { return false }
    let step = min(interval, timeout - waited)
    scheduler.advance(by: step)
    waited += step
    return true
  }

  /// Waits until `condition` holds or the timeout is reached, suspending
  /// instead of blocking; returns whether it holds.
  ///
  /// ```swift
  /// let gone = await LeakWait.realTime(timeout: .seconds(1)).until { weakScreen == nil }
  /// ```
  @MainActor
  @discardableResult
  public func until(_ condition: () -> Bool) async -> Bool {
    switch clock {
    case .none:
      return condition()
    case .manual(let scheduler):
      var waited = Duration.zero
      while !condition() {
        guard advance(scheduler, waited: &waited) else { return false }
        await Task.yield()
      }
      return true
    case .realTime:
      let deadline = ContinuousClock.now + timeout
      while !condition() {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return false }
        try? await Task.sleep(for: min(interval, left))
      }
      return true
    }
  }

  /// ` 2.0 s` for a wait with a timeout, nothing for ``immediately``: fits
  /// "is still alive\(phrase) after …".
  var elapsedPhrase: String {
    if case .none = clock { return "" }
    return " \(timeout.formattedSeconds)"
  }

  /// A hint appended to a failure of a synchronous real-time wait that could
  /// not have worked, see ``LeakWait``.
  @MainActor
  var syncFailureHint: String {
    guard case .realTime = clock, isBlockingSwiftTestingMainQueue else { return "" }
    return
      " (a synchronous real-time wait on the main actor cannot run main-queue work under Swift Testing;"
      + " use the async overload with `await`)"
  }
}
