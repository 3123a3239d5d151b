/// An object the detector found alive after its grace delay.
public struct LeakedInstance: Sendable, Equatable, Identifiable {
  /// Whether the leak is still open.
  public enum Status: Sendable, Equatable {
    /// Still alive: a permanent leak so far.
    case open
    /// Deallocated later; `after` is measured from the moment it was expected to go.
    case resolved(after: Duration)
  }

  /// A stable identifier for this report.
  public var id: UInt64
  /// The unqualified type name, e.g. `AlertScreen`.
  public var typeName: String
  /// The per-type instance number.
  public var instance: Int
  /// `TypeName#n`, as in the summary label.
  public var name: String { "\(typeName)#\(instance)" }
  /// When the object was expected to deallocate (closed, popped, dismissed).
  public var expectedAt: Duration
  /// When the grace delay ran out with the object still alive.
  public var detectedAt: Duration
  /// Open or resolved.
  public var status: Status
  /// The decision taken for it: ``LeakDecision/report`` or ``LeakDecision/logOnly``.
  public var decision: LeakDecision
  /// Why the object is still alive, if an explainer is installed.
  public var retainPath: String?
  /// Descendants (views, child screens) that are alive too, folded under this report.
  public var folded: [String]
  /// Where it was allocated, if an ``LeakDetector/allocationSite`` hook is installed and knows.
  public var allocationSite: String? = nil

  /// Whether the leak has not resolved (so far a permanent leak).
  public var isOpen: Bool { status == .open }

  /// How long the object has been alive past its expected deallocation, at `now`.
  public func age(at now: Duration) -> Duration {
    switch status {
    case .open: now - expectedAt
    case .resolved(let after): after
    }
  }
}

/// A type or group with more live instances than its budget allows.
public struct BudgetIssue: Sendable, Equatable {
  /// The type name or group name.
  public var name: String
  /// Live instances when last counted.
  public var liveCount: Int
  /// The most instances allowed.
  public var maxCount: Int

  /// `TypeName (live/max)`, as in the summary label.
  public var label: String { "\(name) (\(liveCount)/\(maxCount))" }
}
