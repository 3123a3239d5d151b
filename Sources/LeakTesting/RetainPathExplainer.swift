/// Explains why an object is still alive: its retain path, or `nil` when it
/// cannot tell.
///
/// Every LeakTesting helper takes one as `explain:`; a failure message then
/// ends with `; retained by: <path>`. It has the same shape as
/// `LeakDetector.explainer`, so one explainer serves both.
///
/// ```swift
/// let explain: RetainPathExplainer = { object in
///   (object as? ProfileScreen)?.onRefresh != nil ? "ProfileScreen.onRefresh -> ProfileScreen" : nil
/// }
/// assertDeallocation(of: { ProfileScreen() }, explain: explain)
/// ```
public typealias RetainPathExplainer = @Sendable (AnyObject) -> String?

/// The explainer used when a helper is given none.
///
/// None yet. Once the RetainGraph library exists, this is the one place to
/// return its explainer, so every helper explains failures by default.
let defaultRetainPathExplainer: RetainPathExplainer? = nil

/// `message`, followed by `; retained by: <path>` when `explain` can tell why
/// `object` is alive.
func explained(
  _ message: String, object: AnyObject?, explain: RetainPathExplainer?
) -> String {
  guard let object, let explain = explain ?? defaultRetainPathExplainer, let path = explain(object)
  else { return message }
  return "\(message); retained by: \(path)"
}
