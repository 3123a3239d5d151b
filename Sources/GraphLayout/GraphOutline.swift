/// The shape a drawing follows: a spanning forest of the graph, found depth
/// first from the roots, and the edges left over (the ones that close cycles).
///
/// Each node's tree edges are split into its *spine* edge — the child with
/// the deepest subtree, drawn straight on — and *branches*, drawn to the side.
/// A cycle is a chain down the spine plus one leftover edge back up.
struct GraphOutline {
  /// The graph outlined.
  let graph: ReferenceGraph
  /// Node index by id.
  let index: [String: Int]
  /// The first node of each tree, in drawing order.
  private(set) var starts: [Int] = []
  /// Per node: the tree edges leaving it (edge indices), the spine edge last.
  private(set) var children: [[Int]]
  /// Edges outside the forest: back edges, cross edges, self-loops.
  private(set) var extras: [Int] = []
  /// Per node: the depth of its subtree (0 for a leaf).
  private(set) var heights: [Int]

  init(_ graph: ReferenceGraph) {
    self.graph = graph
    var index: [String: Int] = [:]
    for (i, node) in graph.nodes.enumerated() { index[node.id] = i }
    self.index = index
    children = Array(repeating: [], count: graph.nodes.count)
    heights = Array(repeating: 0, count: graph.nodes.count)
    var outgoing = Array(repeating: [Int](), count: graph.nodes.count)
    var incoming = Array(repeating: 0, count: graph.nodes.count)
    for (e, edge) in graph.edges.enumerated() {
      guard let from = index[edge.from], let to = index[edge.to] else { continue }
      outgoing[from].append(e)
      if from != to { incoming[to] += 1 }
    }
    var visited = Array(repeating: false, count: graph.nodes.count)
    let candidates =
      graph.nodes.indices.filter { graph.nodes[$0].isRoot }
      + graph.nodes.indices.filter { incoming[$0] == 0 } + Array(graph.nodes.indices)
    for start in candidates where !visited[start] {
      starts.append(start)
      visit(start, outgoing: outgoing, visited: &visited)
    }
    for node in graph.nodes.indices { orderChildren(of: node) }
  }

  private mutating func visit(_ node: Int, outgoing: [[Int]], visited: inout [Bool]) {
    visited[node] = true
    for e in outgoing[node] {
      let target = index[graph.edges[e].to]!
      if visited[target] {
        extras.append(e)
      } else {
        children[node].append(e)
        visit(target, outgoing: outgoing, visited: &visited)
        heights[node] = max(heights[node], heights[target] + 1)
      }
    }
  }

  /// Moves the child with the deepest subtree (the last of equals) to the end.
  private mutating func orderChildren(of node: Int) {
    guard children[node].count > 1 else { return }
    var best = 0
    for (i, e) in children[node].enumerated()
    where heights[target(of: e)] >= heights[target(of: children[node][best])] {
      best = i
    }
    let spine = children[node].remove(at: best)
    children[node].append(spine)
  }

  /// The node an edge points to.
  func target(of edge: Int) -> Int { index[graph.edges[edge].to]! }
  /// The node an edge leaves.
  func source(of edge: Int) -> Int { index[graph.edges[edge].from]! }
  /// The edge drawn straight on from `node`, if it has children.
  func spine(of node: Int) -> Int? { children[node].last }
  /// The edges drawn to the side of `node`.
  func branches(of node: Int) -> ArraySlice<Int> { children[node].dropLast() }

  /// Whether the forest is one chain: a single tree in which no node has two children.
  var isChain: Bool { starts.count == 1 && children.allSatisfy { $0.count <= 1 } }

  /// The chain from the first start, following spine edges.
  var chain: [Int] {
    guard let first = starts.first else { return [] }
    var nodes = [first]
    while let e = spine(of: nodes[nodes.count - 1]) { nodes.append(target(of: e)) }
    return nodes
  }
}
