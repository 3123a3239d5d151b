import GraphLayout
import TextGrid

/// GraphLayout: drawing a cycle for the terminal (what the explain view does
/// on every frame) beside writing it as DOT and JSON, for cycles of growing length.
func runGraphLayoutBenchmarks() {
  let header = ["cycle", "draw 80×24", "draw 200×50", "DOT", "JSON", "draw 80×24 / DOT"]
  var rows: [[String]] = []
  for count in [3, 6, 12, 50] {
    let graph = benchmarkCycle(count)
    let calls = count >= 50 ? 20 : 200
    func perCall(_ body: () -> Void) -> Duration {
      body()
      return measure(repetitions: 11) { for _ in 0..<calls { body() } } / calls
    }
    let narrow = perCall { _ = graph.draw(fitting: Size(width: 80, height: 24)) }
    let wide = perCall { _ = graph.draw(fitting: Size(width: 200, height: 50)) }
    let dot = perCall { _ = graph.dot() }
    let json = perCall { _ = graph.json() }
    rows.append(
      ["\(count) nodes", format(narrow), format(wide), format(dot), format(json), ratio(narrow, dot)])
  }
  printTable(title: "GraphLayout: one call, median of 11 runs", header: header, rows: rows)
}

/// A plain cycle of `count` objects, one a closure, the closing edge the culprit.
private func benchmarkCycle(_ count: Int) -> ReferenceGraph {
  var graph = ReferenceGraph()
  for index in 0..<count {
    graph.addNode(
      index == count / 2
        ? .init(
          id: "closure_\(index)", title: "closure", kind: .closure, details: ["in Screen\(index).load()"])
        : .init(id: "Node_\(index)", title: "BenchmarkScreen\(index)#1", isLeaked: index == 0))
  }
  let ids = graph.nodes.map(\.id)
  for index in 0..<count {
    graph.addEdge(
      .init(
        from: ids[index], to: ids[(index + 1) % count], label: "field\(index)",
        isCulprit: index == count - 1))
  }
  return graph
}
