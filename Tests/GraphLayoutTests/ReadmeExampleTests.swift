import Foundation
import GraphLayout
import LeakLabTestSupport
import Testing
import TextGrid

@Suite struct ReadmeExampleTests {
  /// The graph of the example in Sources/GraphLayout/README.md.
  static var example: ReferenceGraph {
    var graph = ReferenceGraph()
    graph.addNode(.init(id: "AlertController_1", title: "AlertController#1", isLeaked: true))
    graph.addNode(.init(id: "AlertAction_1", title: "AlertAction#1"))
    graph.addNode(
      .init(id: "closure_1", title: "closure", kind: .closure, details: ["in DraftsScreen.confirmDelete()"]))
    graph.addEdge(.init(from: "AlertController_1", to: "AlertAction_1", label: "actions[1]"))
    graph.addEdge(.init(from: "AlertAction_1", to: "closure_1", label: "handler"))
    graph.addEdge(.init(from: "closure_1", to: "AlertController_1", label: "captures[1]", isCulprit: true))
    return graph
  }

  @Test("The library README shows the example's real drawing")
  func readmePicture() throws {
    let readme = packageRoot.appendingPathComponent("Sources/GraphLayout/README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let blocks = text.components(separatedBy: "```text\n").dropFirst().map {
      $0.components(separatedBy: "```")[0]
    }
    let drawing = Self.example.draw(fitting: Size(width: 80, height: 24)).description + "\n"
    #expect(blocks.first == drawing)
  }
}
