/// Breadth-first search for the shortest path in a graph discovered on demand.
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

  /// The shortest path from any of `sources` to `target`, in edges.
  ///
  /// `edges` gives the outgoing edges of a node that the search may follow.
  /// A path from `target` to itself (a cycle) is found when `target` is a source.
  static func shortestPath(
    from sources: [Node], to target: Node, limits: SearchLimits,
    edges: (Node) -> [(target: Node, edge: Edge)]
  ) -> Outcome {
    let clock = ContinuousClock()
    let deadline = limits.timeLimit.map { clock.now.advanced(by: $0) }
    var outcome = Outcome()
    var parents: [Node: Step] = [:]
    var seen = Set(sources)
    var frontier = sources
    var depth = 0
    while !frontier.isEmpty {
      if let maxDepth = limits.maxDepth, depth >= maxDepth {
        outcome.isTruncated = true
        return outcome
      }
      var next: [Node] = []
      for node in frontier {
        outcome.visited += 1
        if let maxNodes = limits.maxNodes, outcome.visited > maxNodes {
          outcome.isTruncated = true
          return outcome
        }
        if outcome.visited & 255 == 0, let deadline, clock.now > deadline {
          outcome.isTruncated = true
          return outcome
        }
        for (neighbour, edge) in edges(node) {
          if neighbour == target {
            var path: [Step] = [(from: node, edge: edge)]
            var current = node
            while let step = parents[current] {
              path.append(step)
              current = step.from
            }
            outcome.path = path.reversed()
            return outcome
          }
          if seen.insert(neighbour).inserted {
            parents[neighbour] = (from: node, edge: edge)
            next.append(neighbour)
          }
        }
      }
      frontier = next
      depth += 1
    }
    return outcome
  }
}
