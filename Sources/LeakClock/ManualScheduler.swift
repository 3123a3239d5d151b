import Foundation
import Synchronization

/// A scheduler whose time moves only when a test says so.
///
/// ``advance(by:)`` runs every piece of work that falls due, in deadline order
/// (ties in the order they were scheduled), setting ``now`` to each deadline
/// before running it. A ten-second scenario runs in microseconds.
///
/// ```swift
/// @MainActor @Test func firesAfterTheDelay() {
///   let scheduler = ManualScheduler()
///   var fired = false
///   scheduler.schedule(after: .seconds(2)) { fired = true }
///   scheduler.advance(by: .seconds(1))
///   #expect(!fired)
///   scheduler.advance(by: .seconds(1))
///   #expect(fired)
/// }
/// ```
public final class ManualScheduler: Scheduler, @unchecked Sendable {
  private let lock = NSLock()
  /// Nanoseconds since creation. Read on every `expectDeallocation`, so it
  /// is an atomic rather than state behind the lock.
  private let nanoseconds = Atomic<Int64>(0)
  public var nowNanoseconds: Int64 { nanoseconds.load(ordering: .acquiring) }

  private var current: Duration {
    get { .nanoseconds(nanoseconds.load(ordering: .acquiring)) }
    set { nanoseconds.store(newValue.wholeNanoseconds, ordering: .releasing) }
  }
  private var queue: [ScheduledWork] = []
  private var nextSequence: UInt64 = 0

  /// Creates a scheduler whose clock starts at zero.
  public init() {}

  public var now: Duration { lock.withLock { current } }

  @discardableResult
  public func schedule(
    after delay: Duration,
    _ work: @escaping @MainActor @Sendable () -> Void
  ) -> ScheduledWork {
    lock.withLock {
      let item = ScheduledWork(
        deadline: current + max(delay, .zero), sequence: nextSequence, work: work)
      nextSequence += 1
      queue.insert(item, at: insertionIndex(for: item))
      return item
    }
  }

  public var pendingWork: [ScheduledWork] {
    lock.withLock { queue.filter(\.isPending) }
  }

  /// Moves time forward by `duration`, running all work that falls due.
  @MainActor
  public func advance(by duration: Duration) {
    let target = lock.withLock { current + max(duration, .zero) }
    run(until: target)
  }

  /// Runs work that is already due, without moving time.
  @MainActor
  public func runDueWork() {
    run(until: now)
  }

  /// Moves time to the deadline of each pending item in turn until none is
  /// left or `limit` is reached; returns how many items ran.
  @MainActor
  @discardableResult
  public func runUntilIdle(limit: Duration = .seconds(3600)) -> Int {
    let end = lock.withLock { current + limit }
    return run(until: end, stopWhenIdle: true)
  }

  @MainActor
  @discardableResult
  private func run(until target: Duration, stopWhenIdle: Bool = false) -> Int {
    var ran = 0
    while let item = popDue(before: target) {
      if let work = item.take() {
        work()
        ran += 1
      }
    }
    lock.withLock {
      if !stopWhenIdle || queue.isEmpty == false { current = max(current, target) }
    }
    return ran
  }

  private func popDue(before target: Duration) -> ScheduledWork? {
    lock.withLock {
      guard let first = queue.first, first.deadline <= target else { return nil }
      queue.removeFirst()
      current = max(current, first.deadline)
      return first
    }
  }

  private func insertionIndex(for item: ScheduledWork) -> Int {
    // Binary search for the first element that sorts after `item`.
    var low = 0
    var high = queue.count
    while low < high {
      let mid = (low + high) / 2
      let other = queue[mid]
      if (other.deadline, other.sequence) <= (item.deadline, item.sequence) {
        low = mid + 1
      } else {
        high = mid
      }
    }
    return low
  }
}
