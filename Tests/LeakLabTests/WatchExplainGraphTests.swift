import GraphLayout
import HeapModel
import Testing

@testable import LeakLab

/// The watch's drawing of why an instance is alive marks what every other
/// view marks: on a cycle, the reference to break.
@Suite struct WatchExplainGraphTests {
  @Test func aCyclesReferenceToBreakIsDrawnAsTheCulprit() {
    let why = HeapModel.WhyAlive(
      shape: .cycle, root: nil, nodes: ["Connection", "RequestHandler"], labels: ["handler", "connection"],
      accounting: nil)
    let graph = WatchExplainView.graph(of: why)
    #expect(graph.edges.map(\.isCulprit) == [false, true])
    #expect(graph.edges.first { $0.isCulprit }?.label == "connection")
  }

  @Test func aPathFromARootHasNoCulprit() {
    let why = HeapModel.WhyAlive(
      shape: .rootPath, root: "global sessionLog in Server",
      nodes: ["Array<AnyObject> storage", "SessionRecord"],
      labels: ["[3]"], accounting: nil)
    #expect(!WatchExplainView.graph(of: why).edges.contains { $0.isCulprit })
  }
}
