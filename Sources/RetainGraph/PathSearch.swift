/// Cheapest-path search in a graph discovered on demand.
struct PathSearch<Node: Hashable, Edge> {
  /// One step of a path: the node it leaves and the edge it follows.
  typealias Step = (from: Node, edge: Edge)

  /// The result of a search.
  struct Outcome {
    /// The steps from a source to the target, or nil when none was found.
    var path: [Step]?
    /// Whether a limit stopped the search first.
    var isTruncated = false
    /// Nodes expanded.
    var visited = 0
  }

  /// The cheapest path from any of `sources` to `target`.
  ///
  /// `edges` gives the outgoing edges of a node that the search may follow,
  /// each with its cost (at least 1): with every cost 1, the shortest path.
  /// A path from `target` to itself (a cycle) is found when `target` is a
  /// source. `limits.maxDepth` bounds a path's number of edges.
  static func shortestPath(
    from sources: [Node], to target: Node, limits: SearchLimits,
    edges: (Node) -> [(target: Node, edge: Edge, cost: Int)]
  ) -> Outcome {
    let clock = ContinuousClock()
    let deadline = limits.timeLimit.map { clock.now.advanced(by: $0) }
    var outcome = Outcome()
    var parents: [Node: Step] = [:]
    var best: [Node: (cost: Int, depth: Int)] = [:]
    for source in sources { best[source] = (0, 0) }
    var buckets: [[Node]] = [sources]
    var closing: (cost: Int, step: Step)?
    var current = 0
    while current < buckets.count {
      if let closing, closing.cost <= current { break }
      guard let node = buckets[current].popLast() else {
        current += 1
        continue
      }
      guard let reached = best[node], reached.cost == current else { continue }
      outcome.visited += 1
      if let maxNodes = limits.maxNodes, outcome.visited > maxNodes {
        outcome.isTruncated = true
        break
      }
      if outcome.visited & 255 == 0, let deadline, clock.now > deadline {
        outcome.isTruncated = true
        break
      }
      if let maxDepth = limits.maxDepth, reached.depth >= maxDepth {
        outcome.isTruncated = true
        continue
      }
      for (neighbour, edge, step) in edges(node) {
        let cost = current + max(1, step)
        if neighbour == target {
          if closing == nil || cost < closing!.cost { closing = (cost, (from: node, edge: edge)) }
          continue
        }
        guard cost < best[neighbour]?.cost ?? Int.max else { continue }
        best[neighbour] = (cost, reached.depth + 1)
        parents[neighbour] = (from: node, edge: edge)
        while buckets.count <= cost { buckets.append([]) }
        buckets[cost].append(neighbour)
      }
    }
    guard let closing else { return outcome }
    var path: [Step] = [closing.step]
    var current2 = closing.step.from
    while let step = parents[current2] {
      path.append(step)
      current2 = step.from
    }
    outcome.path = path.reversed()
    outcome.isTruncated = false
    return outcome
  }
}
