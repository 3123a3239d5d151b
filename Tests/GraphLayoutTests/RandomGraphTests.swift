import GraphLayout
import Testing
import TextGrid

/// Drawings of many generated graphs: whatever the shape, nothing is lost
/// and boxes never overlap.
@Suite struct RandomGraphTests {
  /// A small deterministic generator (SplitMix64), so a failure reproduces.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func graph(seed: UInt64) -> ReferenceGraph {
    var random = Generator(state: seed)
    let count = Int.random(in: 1...8, using: &random)
    var graph = ReferenceGraph()
    for i in 0..<count {
      graph.addNode(
        .init(
          id: "N\(i)", title: "Node\(i)#\(seed % 7)",
          kind: Bool.random(using: &random) ? .object : .closure,
          details: Bool.random(using: &random) ? ["in Type\(i).method()"] : [],
          isRoot: i == 0 && Bool.random(using: &random), isLeaked: Bool.random(using: &random)))
    }
    for _ in 0..<Int.random(in: 0...(count * 2), using: &random) {
      let from = Int.random(in: 0..<count, using: &random)
      let to = Int.random(in: 0..<count, using: &random)
      graph.addEdge(
        .init(
          from: "N\(from)", to: "N\(to)", label: "field\(Int.random(in: 0...99, using: &random))",
          strength: ReferenceGraph.Strength.allCases.randomElement(using: &random)!,
          isCulprit: Int.random(in: 0..<5, using: &random) == 0))
    }
    return graph
  }

  @Test("Generated graphs keep every title and one arrowhead per edge", arguments: 0..<60)
  func generated(_ seed: Int) {
    let graph = Self.graph(seed: UInt64(seed))
    for size in [Size(width: 80, height: 24), Size(width: 200, height: 50), Size(width: 20, height: 5)] {
      let grid = graph.draw(fitting: size)
      let text = grid.description
      for node in graph.nodes { #expect(text.contains(node.title), "seed \(seed) at \(size)") }
      var heads = 0
      for y in 0..<grid.height {
        for x in 0..<grid.width where "▼▲▶◀▽△▷◁".contains(grid[x, y].character) { heads += 1 }
      }
      #expect(heads == graph.edges.count, "seed \(seed) at \(size):\n\(text)")
    }
  }

  @Test("Generated graphs never put two box corners in one cell", arguments: 0..<60)
  func boxesDoNotOverlap(_ seed: Int) {
    let graph = Self.graph(seed: UInt64(seed))
    let grid = graph.draw(fitting: Size(width: 80, height: 24))
    // Each box has exactly one top-left corner; a box drawn over another loses one.
    var corners = 0
    for y in 0..<grid.height {
      for x in 0..<grid.width where "┌╭╔".contains(grid[x, y].character) { corners += 1 }
    }
    #expect(corners == graph.nodes.count, "seed \(seed):\n\(grid)")
  }

  /// A plain cycle of 4–9 nodes with names and labels of random lengths.
  static func cycle(seed: UInt64) -> ReferenceGraph {
    var random = Generator(state: seed)
    let count = Int.random(in: 4...9, using: &random)
    var graph = ReferenceGraph()
    for i in 0..<count {
      let name = "Type" + String(repeating: "x", count: Int.random(in: 0...20, using: &random)) + "#\(i)"
      graph.addNode(.init(id: "N\(i)", title: name, isLeaked: i == 0))
    }
    for i in 0..<count {
      let label = "field" + String(repeating: "y", count: Int.random(in: 0...25, using: &random))
      graph.addEdge(.init(from: "N\(i)", to: "N\((i + 1) % count)", label: label, isCulprit: i == count - 1))
    }
    return graph
  }

  @Test(
    "Generated long cycles, in a row, a ring or stacked, keep every title and one head per edge",
    arguments: 0..<40)
  func cycles(_ seed: Int) {
    let graph = Self.cycle(seed: UInt64(seed))
    for size in [Size(width: 200, height: 50), Size(width: 120, height: 40), Size(width: 80, height: 24)] {
      let grid = graph.draw(fitting: size)
      let text = grid.description
      for node in graph.nodes {
        #expect(text.contains(" \(node.title) "), "seed \(seed) at \(size):\n\(text)")
      }
      for edge in graph.edges { #expect(text.contains(edge.caption), "seed \(seed) at \(size):\n\(text)") }
      var heads = 0
      var corners = 0
      for y in 0..<grid.height {
        for x in 0..<grid.width {
          if "▼▲▶◀".contains(grid[x, y].character) { heads += 1 }
          if grid[x, y].character == "┌" { corners += 1 }
        }
      }
      #expect(heads == graph.edges.count, "seed \(seed) at \(size):\n\(text)")
      #expect(corners == graph.nodes.count, "seed \(seed) at \(size):\n\(text)")
    }
  }
}
