import HeapModel

/// Why an object is still alive, as far as the explainer can see.
///
/// ```swift
/// let explanation = explainer.explain(controller)
/// switch explanation.verdict {
/// case .cycle(let path): print("retain cycle:", path)
/// case .heldByRoot(let path): print("held from a root:", path)
/// case .notVisible(let retainCount): print("held elsewhere, retain count \(retainCount)")
/// }
/// ```
public struct Explanation: Sendable, CustomStringConvertible {
  /// The verdict of a search.
  public enum Verdict: Sendable, Hashable {
    /// The shortest strong cycle through the object; the path starts and ends at it.
    case cycle(RetainPath)
    /// A strong path to the object from a true root (a global, a thread's
    /// stack or thread-local storage, found by scanning memory) or from a
    /// registered root.
    case heldByRoot(RetainPath)
    /// Nothing visible from the object or the roots holds it: something not
    /// visible here does (a local variable, a global, unregistered work).
    /// The retain count includes the references the caller holds.
    case notVisible(retainCount: Int)
  }

  /// The object explained.
  public var object: ObjectInfo
  /// What was found.
  public var verdict: Verdict
  /// The inspection method that produced the verdict.
  public var method: InspectionMethod
  /// Whether a limit (depth, nodes, time) stopped a search before it was
  /// complete: a path may exist beyond it.
  public var isTruncated: Bool
  /// How many heap objects the searches visited.
  public var visitedCount: Int
  /// A path from a true root — a global (named by its symbol and image), a
  /// thread's stack or thread-local storage, a registered root — found by
  /// scanning the process's memory backwards from the object. Set whenever
  /// one exists, also when the verdict is a cycle: an object can be held by
  /// both. Steps through memory without Swift metadata are conservative.
  public var rootPath: RetainPath?
  /// Why nothing could be seen holding the object, when the verdict is
  /// ``Verdict/notVisible(retainCount:)``.
  public var notVisibleReason: String?
  /// Where the object's strong references are, when its memory was
  /// searched: "3 of 3 strong references found" (fields, captures and
  /// elements account for its whole strong count), or which are held from
  /// memory no metadata describes, or are the caller's own.
  public var strongReferences: StrongReferences?
  /// When the verdict's path starts at another leak (registered with
  /// ``RetainExplainer/registerLeak(_:inCycle:)``): whether that leak is a
  /// cycle. The path then reads "kept by the leaked cycle of X → …".
  public var keptByLeakInCycle: Bool?

  /// Creates an explanation.
  public init(
    object: ObjectInfo, verdict: Verdict, method: InspectionMethod, isTruncated: Bool, visitedCount: Int,
    rootPath: RetainPath? = nil, notVisibleReason: String? = nil, strongReferences: StrongReferences? = nil
  ) {
    self.object = object
    self.verdict = verdict
    self.method = method
    self.isTruncated = isTruncated
    self.visitedCount = visitedCount
    self.rootPath = rootPath
    self.notVisibleReason = notVisibleReason
    self.strongReferences = strongReferences
  }

  /// The path found, if any.
  public var path: RetainPath? {
    switch verdict {
    case .cycle(let path), .heldByRoot(let path): path
    case .notVisible: nil
    }
  }

  public var description: String {
    var text: String
    switch verdict {
    case .cycle(let path):
      text = "retain cycle: \(path)"
      if let rootPath { text += "; also held from root: \(rootPath)" }
    case .heldByRoot(let path):
      switch keptByLeakInCycle {
      case true?: text = "kept by the leaked cycle of \(path)"
      case false?: text = "kept by the leak \(path)"
      case nil: text = "held from root: \(path)"
      }
    case .notVisible(let count):
      text = "\(object.name) is held by something not visible here (retain count \(count))"
      if let notVisibleReason { text += ": \(notVisibleReason)" }
    }
    if let strongReferences { text += "; \(strongReferences)" }
    if isTruncated { text += " [search stopped at a limit]" }
    if method == .mirror { text += " [Mirror fallback: cannot tell weak from strong, cannot see captures]" }
    return text
  }
}
