/// Something the leak detector noticed, in the order it noticed it.
///
/// Subscribe with ``LeakDetector/subscribe(_:)`` to feed an event log, or read
/// ``LeakDetector/history`` in a test.
///
/// ```swift
/// detector.subscribe { event in
///   print(event.kind, event.name, event.message)
/// }
/// ```
public struct LeakEvent: Sendable, Equatable, CustomStringConvertible {
  /// What happened.
  public enum Kind: String, Sendable, Equatable, CaseIterable {
    /// An object was handed to the detector and should deallocate soon.
    case expected
    /// An object was still alive after its grace delay.
    case detected
    /// A detected object finally deallocated.
    case resolved
    /// A type or group has more live instances than its budget allows.
    case budgetExceeded
    /// A type or group is back within its budget.
    case budgetCleared
    /// Objects handed over together (one `expectDeallocation` call) have all
    /// been checked: ``LeakEvent/check`` says how many were still alive.
    /// Delivered to subscribers only (not kept in the history).
    case checked
  }

  /// What a `checked` event checked.
  public struct Check: Sendable, Equatable {
    /// How many objects were checked.
    public var objects: Int
    /// How many of them were still alive after their grace delay.
    public var alive: Int

    /// Creates a check result.
    public init(objects: Int, alive: Int) {
      self.objects = objects
      self.alive = alive
    }

    /// Whether every checked object had deallocated.
    public var allDeallocated: Bool { alive == 0 }
  }

  /// What happened.
  public var kind: Kind
  /// The unqualified type name of the object (or the budget's type name).
  public var typeName: String
  /// The per-type instance number (`2` in `Screen#2`), once the detector has named the object.
  public var instance: Int?
  /// The name shown to users: `Screen#2`, or the type or group name for budget events.
  public var name: String
  /// When the event happened, on the detector's scheduler timeline.
  public var time: Duration
  /// How long the object has been expected to deallocate (zero for budget events).
  public var age: Duration
  /// A one-line human-readable explanation.
  public var message: String
  /// What the decision hook answered, for `detected` and `budgetExceeded` events.
  public var decision: LeakDecision?
  /// For `checked` events: how many objects were checked and how many were still alive.
  public var check: Check? = nil

  public var description: String { "[\(kind.rawValue)] \(message)" }
}

/// The answer of a ``LeakDetector`` decision hook for a detected leak or an exceeded budget.
public enum LeakDecision: String, Sendable, Equatable {
  /// Show it: it appears in the summary label and the report.
  case report
  /// Record it in the history, but keep it out of the label.
  case logOnly
  /// Forget it: never reported again, not even when it resolves.
  case ignore
}
