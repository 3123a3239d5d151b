/// How the explainer reads objects.
public enum InspectionMethod: String, Sendable, Hashable {
  /// The runtime's Remote Mirror library, in-process: field names, strengths,
  /// closure captures. Reads are copies through `process_vm_readv`, so a bad
  /// address fails instead of crashing.
  case remoteMirror
  /// Remote Mirror reading memory directly: faster, but a dying object can
  /// fault. Only for objects that cannot change during the inspection.
  case remoteMirrorDirectReads
  /// `Mirror`, the fallback: it cannot tell weak from strong (every reference
  /// counts as strong, so weak back edges show as cycles) and cannot see
  /// closure captures.
  case mirror
}

/// Which inspection method an explainer should use.
public enum InspectionPreference: Sendable, Hashable {
  /// Remote Mirror with safe reads, or `Mirror` when the library cannot be initialised.
  case automatic
  /// Exactly this method; Remote Mirror methods fall back to `Mirror` when unavailable.
  case only(InspectionMethod)
}

/// Bounds on a search, so an explanation always returns.
///
/// `nil` means no bound. The default has no depth bound, a million nodes
/// and two seconds.
public struct SearchLimits: Sendable, Hashable {
  /// The longest path to look for, in references.
  public var maxDepth: Int?
  /// The most heap objects to visit per search.
  public var maxNodes: Int?
  /// The longest a search may take.
  public var timeLimit: Duration?

  /// Creates limits.
  public init(maxDepth: Int? = nil, maxNodes: Int? = 1_000_000, timeLimit: Duration? = .seconds(2)) {
    self.maxDepth = maxDepth
    self.maxNodes = maxNodes
    self.timeLimit = timeLimit
  }

  /// No depth bound, a million nodes, two seconds.
  public static let `default` = SearchLimits()
  /// No bounds at all.
  public static let unbounded = SearchLimits(maxDepth: nil, maxNodes: nil, timeLimit: nil)
}
