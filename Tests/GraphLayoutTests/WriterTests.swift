import Foundation
import GraphLayout
import LeakLabTestSupport
import Testing

@Suite struct WriterTests {
  // MARK: DOT

  @Test("The DOT of each shape is rendered by Graphviz", arguments: Shape.allCases)
  func dotRenders(_ shape: Shape) throws {
    let svg = try Graphviz.svg(from: shape.graph.dot())
    #expect(svg.contains("<svg"))
    for node in shape.graph.nodes {
      #expect(svg.contains(Graphviz.xmlEscaped(node.title)), "\(node.title) not in the SVG")
    }
    for edge in shape.graph.edges {
      #expect(svg.contains(Graphviz.xmlEscaped(edge.caption)), "\(edge.caption) not in the SVG")
    }
  }

  @Test("DOT names nodes by their stable ids and marks strengths, roots, leaks and the culprit")
  func dotText() {
    let dot = Shape.rootPathToCycle.graph.dot()
    #expect(dot.hasPrefix("digraph \"retain\" {\n"))
    #expect(dot.contains(#""NotificationCenter" [label="NotificationCenter\nroot", peripheries=2];"#))
    #expect(
      dot.contains(
        #""closure_1" [label="closure\nin SyncScreen.observe()\ncaptures SyncScreen#1", style="rounded"];"#))
    #expect(dot.contains(#""SyncScreen_1" [label="SyncScreen#1\nleaked", style="bold"];"#))
    #expect(
      dot.contains(
        ##""NotificationCenter" -> "Dictionary_storage" [label="word 3 (conservative)", style=dashed, color="#b8860b", fontcolor="#b8860b"];"##
      ))
    #expect(
      dot.contains(
        #""SyncViewModel_1" -> "SyncScreen_1" [label="onChange: closure in SyncScreen.bind() (strong)", color=red, fontcolor=red, penwidth=2.5];"#
      ))
    #expect(
      Shape.manyEdges.graph.dot().contains(#"[label="coordinator (weak)", style=dashed, arrowhead=empty]"#))
  }

  @Test("DOT strings escape quotes, backslashes and newlines")
  func dotEscaping() throws {
    let graph = ReferenceGraph(
      nodes: [.init(id: "a", title: #"say "hi" \ bye"#), .init(id: "b", title: "two\nlines")],
      edges: [.init(from: "a", to: "b", label: #"dict["key"]"#)])
    let dot = graph.dot()
    #expect(dot.contains(#"[label="say \"hi\" \\ bye"]"#))
    #expect(dot.contains(#"[label="two\nlines"]"#))
    #expect(dot.contains(#"[label="dict[\"key\"] (strong)"]"#))
    _ = try Graphviz.svg(from: dot)
  }

  // MARK: Mermaid

  @Test("Mermaid draws each node once and each edge with an arrow for its strength")
  func mermaid() {
    let text = Shape.manyEdges.graph.mermaid()
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "flowchart TD")
    #expect(lines.contains(#"  CheckoutScreen_1["CheckoutScreen#35;1<br/>leaked"]"#))
    #expect(lines.contains(#"  CheckoutScreen_1 -->|"rootView (strong)"| View_1"#))
    #expect(lines.contains(#"  CheckoutScreen_1 -.->|"coordinator (weak)"| Coordinator_1"#))
    #expect(lines.contains(#"  PaymentForm_1 ==>|"delegate (strong)"| CheckoutScreen_1"#))
    #expect(lines.contains("  linkStyle 8 stroke:red,color:red"))
    #expect(lines.contains("  class CheckoutScreen_1 leaked"))
    let edgeLines = lines.filter { $0.contains("-->") || $0.contains("-.->") || $0.contains("==>") }
    #expect(edgeLines.count == Shape.manyEdges.graph.edges.count)
  }

  @Test("Mermaid shapes: a root in a subroutine box, a closure rounded")
  func mermaidShapes() {
    let text = Shape.rootPathToCycle.graph.mermaid()
    #expect(text.contains(#"  NotificationCenter[["NotificationCenter<br/>root"]]"#))
    #expect(
      text.contains(#"  closure_1("closure<br/>in SyncScreen.observe()<br/>captures SyncScreen#35;1")"#))
  }

  @Test("Mermaid labels escape what Mermaid would read as syntax")
  func mermaidEscaping() {
    let graph = ReferenceGraph(
      nodes: [.init(id: "a", title: #"A<T> "x" | #1"#), .init(id: "b", title: "B")],
      edges: [.init(from: "a", to: "b", label: "values[0]", closure: "closure in f<A>(_:)")])
    let text = graph.mermaid()
    #expect(text.contains(#"a["A#lt;T#gt; #quot;x#quot; #124; #35;1"]"#))
    #expect(text.contains(#"a -->|"values[0]: closure in f#lt;A#gt;(_:) (strong)"| b"#))
  }

  // MARK: JSON

  @Test("JSON round-trips and uses the documented keys")
  func json() throws {
    let graph = Shape.rootPathToCycle.graph
    let text = graph.json()
    let decoded = try JSONDecoder().decode(ReferenceGraph.self, from: Data(text.utf8))
    #expect(decoded == graph)
    let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let nodes = try #require(object["nodes"] as? [[String: Any]])
    let edges = try #require(object["edges"] as? [[String: Any]])
    #expect(Set(nodes[0].keys) == ["id", "title", "kind", "details", "root", "leaked"])
    #expect(nodes[0]["id"] as? String == "NotificationCenter")
    #expect(nodes[0]["root"] as? Bool == true)
    #expect(Set(edges[0].keys) == ["from", "to", "label", "strength", "culprit"])
    #expect(edges[0]["strength"] as? String == "conservative")
    #expect(edges[4]["closure"] as? String == "closure in SyncScreen.bind()")
    #expect(edges[4]["culprit"] as? Bool == true)
  }

  @Test("Decoding drops edges whose ends are not nodes")
  func jsonDropsDanglingEdges() throws {
    let text =
      #"{"nodes": [{"id": "a", "title": "A", "kind": "object", "details": [], "root": false, "leaked": true}], "edges": [{"from": "a", "to": "zz", "label": "f", "strength": "strong", "culprit": false}]}"#
    let graph = try JSONDecoder().decode(ReferenceGraph.self, from: Data(text.utf8))
    #expect(graph.nodes.count == 1)
    #expect(graph.edges.isEmpty)
  }

  // MARK: Ids

  @Test("Ids are made of letters, digits and underscores, starting with a letter")
  func identifiers() {
    #expect(ReferenceGraph.identifier(for: "AlertController#1") == "AlertController_1")
    #expect(ReferenceGraph.identifier(for: "Dictionary storage") == "Dictionary_storage")
    #expect(ReferenceGraph.identifier(for: "closure in A.f<B>(_:)") == "closure_in_A_f_B")
    #expect(ReferenceGraph.identifier(for: "42") == "n_42")
    #expect(ReferenceGraph.identifier(for: "Ünïcode") == "n_code")
    #expect(ReferenceGraph.identifier(for: "") == "n_")
  }

  @Test("Adding a node twice merges it; adding an edge twice keeps one, with its culprit mark")
  func merging() {
    var graph = ReferenceGraph()
    graph.addNode(.init(id: "a", title: "A#1"))
    graph.addNode(.init(id: "a", title: "A#1", isLeaked: true))
    graph.addNode(.init(id: "b", title: "B#1"))
    graph.addEdge(.init(from: "a", to: "b", label: "b"))
    graph.addEdge(.init(from: "a", to: "b", label: "b", isCulprit: true))
    graph.addEdge(.init(from: "a", to: "missing", label: "x"))
    #expect(graph.nodes.count == 2)
    #expect(graph.nodes[0].isLeaked)
    #expect(graph.edges.count == 1)
    #expect(graph.edges[0].isCulprit)
  }
}
