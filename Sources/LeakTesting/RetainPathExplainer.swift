import RetainGraph

/// Explains why an object is still alive: its retain path, or `nil` when it
/// cannot tell.
///
/// Every LeakTesting helper takes one as `explain:`; a failure message then
/// ends with `; retained by: <path>`. It has the same shape as
/// `LeakDetector.explainer`, so one explainer serves both.
///
/// Given none (`explain:` left out, or `nil`), a helper uses RetainGraph's
/// explainer, which names the shortest strong cycle through the object:
///
/// ```
/// ClosureHolder is still alive after it should have deallocated; retained by: retain cycle:
/// ClosureHolder → onChange: closure in ClosureHolder.captureSelf() → captures ClosureHolder (strong)
/// ```
///
/// Pass ``noRetainPath`` to leave the path out, or an explainer of your own:
///
/// ```swift
/// let explain: RetainPathExplainer = { object in
///   (object as? ProfileScreen)?.onRefresh != nil ? "ProfileScreen.onRefresh -> ProfileScreen" : nil
/// }
/// assertDeallocation(of: { ProfileScreen() }, explain: explain)
/// assertDeallocation(of: { ProfileScreen() }, explain: noRetainPath)  // just the type
/// ```
public typealias RetainPathExplainer = @Sendable (AnyObject) -> String?

/// An explainer that never explains: pass it as `explain:` to any helper (or
/// to ``LeakTracker``, `trackForLeaks` or `.leakChecked`) to leave the retain
/// path out of failure messages, which then name only the type.
///
/// ```swift
/// assertDeallocation(of: { ProfileScreen() }, explain: noRetainPath)
/// // ProfileScreen is still alive after it should have deallocated
/// ```
public let noRetainPath: RetainPathExplainer = { _ in nil }

/// The explainer used when a helper is given none: RetainGraph's, which names
/// the shortest strong cycle through the object, closure captures included.
/// When nothing visible holds the object (a local variable in the test, say)
/// it adds nothing, rather than a retain count that only adds noise.
let defaultRetainPathExplainer: RetainPathExplainer? = retainGraphExplainer

/// RetainGraph's explanation of `object` when it found a path, else nil.
let retainGraphExplainer: RetainPathExplainer = { object in
  let explanation = sharedExplainer.explain(object)
  return explanation.path == nil ? nil : explanation.description
}

/// One explainer for all helpers; it has no registered roots. A failure
/// names the cycle to break; the process's memory is searched for a path
/// from a true root only when no cycle explains the object (a snapshot of a
/// large test process's heap takes seconds in a debug build).
let sharedExplainer = RetainExplainer(searchesMemoryBesideCycles: false)

/// `message`, followed by `; retained by: <path>` when `explain` can tell why
/// `object` is alive.
func explained(
  _ message: String, object: AnyObject?, explain: RetainPathExplainer?
) -> String {
  guard let object, let explain = explain ?? defaultRetainPathExplainer, let path = explain(object)
  else { return message }
  return "\(message); retained by: \(path)"
}
