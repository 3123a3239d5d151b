import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A scheduler on the real monotonic clock that runs work on the main queue.
///
/// Work runs when the main queue is drained: by `dispatchMain()`, a running
/// `RunLoop.main`, or a terminal input loop that spins the run loop between
/// key presses.
///
/// ``now`` reads the kernel's coarse monotonic clock: a few milliseconds of
/// resolution (the scheduler tick), about 6 ns a read instead of 36 ns, which
/// matters when every `expectDeallocation` reads the time.
public final class LiveScheduler: Scheduler, @unchecked Sendable {
  private let origin = LiveScheduler.monotonic()
  private let lock = NSLock()
  private var pending: [ObjectIdentifier: ScheduledWork] = [:]
  private var nextSequence: UInt64 = 0

  /// Creates a scheduler whose ``now`` starts at zero.
  public init() {}

  public var now: Duration { Self.monotonic() - origin }

  public var nowNanoseconds: Int64 { (Self.monotonic() - origin).wholeNanoseconds }

  private static func monotonic() -> Duration {
    var time = timespec()
    #if os(Linux)
      clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
    #else
      clock_gettime(CLOCK_MONOTONIC, &time)
    #endif
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  @discardableResult
  public func schedule(
    after delay: Duration,
    _ work: @escaping @MainActor @Sendable () -> Void
  ) -> ScheduledWork {
    let item = lock.withLock {
      let item = ScheduledWork(deadline: now + max(delay, .zero), sequence: nextSequence, work: work)
      nextSequence += 1
      pending[ObjectIdentifier(item)] = item
      return item
    }
    arm(item, after: max(delay, .zero))
    return item
  }

  /// Runs `item` on the main queue after `delay`, and never before ``now``
  /// reads its deadline.
  ///
  /// The timer behind `asyncAfter` runs on the precise monotonic clock, while
  /// ``now`` reads the coarse one, up to a tick (4 ms) behind: without the
  /// re-arm, work could run while ``now`` still reads before its deadline, and
  /// code that compares the two (the leak detector's sweep) would think it
  /// ran too early.
  private func arm(_ item: ScheduledWork, after delay: Duration) {
    DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(delay.nanosecondsRoundedUp)) { [self] in
      let remaining = item.deadline - now
      if remaining > .zero, item.isPending {
        arm(item, after: remaining)
        return
      }
      lock.withLock { _ = pending.removeValue(forKey: ObjectIdentifier(item)) }
      MainActor.assumeIsolated {
        item.take()?()
      }
    }
  }

  public var pendingWork: [ScheduledWork] {
    lock.withLock {
      pending.values.filter(\.isPending).sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    }
  }
}

extension Duration {
  /// The duration in whole nanoseconds, rounded up and clamped to `Int`.
  var nanosecondsRoundedUp: Int {
    let (seconds, attoseconds) = components
    let nanos = Double(seconds) * 1e9 + (Double(attoseconds) / 1e9).rounded(.up)
    return Int(min(nanos, Double(Int.max / 2)))
  }

  /// The duration in seconds as a `Double`.
  public var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
