import GraphLayout
import RetainGraph
import RetainGraphDrawing
import Testing

/// The default explainer, plus the retain graph as Graphviz DOT: pass it as
/// `explain:` to any helper to get a picture of the cycle with the failure.
///
/// The failure message keeps its one-line path and gains the DOT after it,
/// so the graph is in the test's output under XCTest and Swift Testing alike.
/// Under Swift Testing the DOT is also recorded as an attachment named
/// `<Type>.dot`, which `swift test --attachments-path DIR` writes to a file.
/// Render it with `dot -Tsvg ProfileScreen.dot > ProfileScreen.svg`.
///
/// ```swift
/// assertDeallocation(of: { ProfileScreen() }, explain: retainPathWithDOT)
/// // ProfileScreen is still alive after it should have deallocated; retained by: retain cycle:
/// // ProfileScreen → onRefresh: closure in ProfileScreen.load() → captures ProfileScreen (strong)
/// // retain graph (DOT):
/// // digraph "ProfileScreen" {
/// //   …
/// ```
///
/// It works wherever `explain:` does: `LeakTracker(explain:)`,
/// `.leakChecked(explain: retainPathWithDOT)`, `trackForLeaks(_:explain:)`.
public let retainPathWithDOT: RetainPathExplainer = { object in
  let explanation = sharedExplainer.explain(object)
  guard explanation.path != nil else { return nil }
  let dot = ReferenceGraph(explanation).dot(name: explanation.object.typeName)
  if Test.current != nil {
    Attachment.record(dot, named: "\(explanation.object.typeName).dot")
  }
  return "\(explanation)\nretain graph (DOT):\n\(dot)"
}
