import Foundation

/// One piece of work waiting in a ``Scheduler``.
///
/// The scheduler holds the work closure strongly until it runs or is
/// cancelled — exactly as `DispatchQueue.asyncAfter` holds its block — so an
/// object captured by pending work stays alive until then.
public final class ScheduledWork: @unchecked Sendable {
  /// When the work is due, on the scheduler's timeline (a ``ManualScheduler``
  /// moves a waiting poll to the moment other work ran).
  public internal(set) var deadline: Duration
  /// The order in which work was scheduled; breaks ties between equal deadlines.
  public internal(set) var sequence: UInt64
  /// Whether the work only looks for a change (``Scheduler/schedulePoll(after:_:)``).
  public let isPoll: Bool
  /// For a poll of a ``ManualScheduler``: the epoch it was scheduled
  /// in (read and written under that scheduler's lock).
  var pollEpoch: UInt64?

  // The closure lives in a plain stored property (not behind a `Mutex`) so
  // that reflection-based tools can see what it captures.
  private var work: (@MainActor @Sendable () -> Void)?
  private let lock = NSLock()

  init(
    deadline: Duration, sequence: UInt64, isPoll: Bool = false,
    work: @escaping @MainActor @Sendable () -> Void
  ) {
    self.deadline = deadline
    self.sequence = sequence
    self.isPoll = isPoll
    self.work = work
  }

  /// Whether the work has neither run nor been cancelled.
  public var isPending: Bool {
    lock.withLock { work != nil }
  }

  /// Drops the work without running it, releasing what it captured.
  public func cancel() {
    let dropped = lock.withLock { () -> (@MainActor @Sendable () -> Void)? in
      defer { work = nil }
      return work
    }
    _ = dropped  // released here, outside the lock
  }

  /// Takes the closure out for running; later calls return `nil`.
  func take() -> (@MainActor @Sendable () -> Void)? {
    lock.withLock {
      defer { work = nil }
      return work
    }
  }

  /// The closure, for inspection only (nil once run or cancelled).
  public var closure: (@MainActor @Sendable () -> Void)? {
    lock.withLock { work }
  }
}
