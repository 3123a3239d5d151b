/// The `Mirror` fallback of ``RetainExplainer``.
extension RetainExplainer {
  func mirrorReferences(of object: AnyObject) -> [Reference] {
    var graph = MirrorGraph()
    let node = graph.node(for: object)
    let fixed = rootNamesByIdentifier()
    return graph.edges(of: node).map { _, edge in
      let target = graph.objects[edge.target]!
      return Reference(
        label: edge.label, strength: .unknown,
        target: MirrorGraph.info(of: target, name: fixed[edge.target] ?? name(of: target)))
    }
  }

  func mirrorExplanation(of object: AnyObject, roots: [(object: AnyObject, name: String?)]) -> Explanation {
    var graph = MirrorGraph()
    let subject = graph.node(for: object)
    let fixed = rootNamesByIdentifier()
    func info(_ node: ObjectIdentifier) -> ObjectInfo {
      let target = graph.objects[node]!
      return MirrorGraph.info(of: target, name: fixed[node] ?? name(of: target))
    }
    var visited = 0
    var truncated = false
    let attempts: [(isCycle: Bool, sources: [ObjectIdentifier])] = [
      (true, [subject]), (false, roots.map { graph.node(for: $0.object) }),
    ]
    for attempt in attempts where !attempt.sources.isEmpty {
      if !attempt.isCycle, attempt.sources.contains(subject) {
        let path = RetainPath(start: info(subject), steps: [])
        return Explanation(
          object: info(subject), verdict: .heldByRoot(path), method: .mirror, isTruncated: truncated,
          visitedCount: visited)
      }
      let outcome = PathSearch<ObjectIdentifier, MirrorGraph.Edge>.shortestPath(
        from: attempt.sources, to: subject, limits: limits
      ) { graph.edges(of: $0).map { (target: $0.target, edge: $0.edge, cost: 1) } }
      visited += outcome.visited
      truncated = truncated || outcome.isTruncated
      if let path = outcome.path, let first = path.first {
        let steps = path.map { step in
          Reference(label: step.edge.label, strength: .unknown, target: info(step.edge.target))
        }
        let retainPath = RetainPath(start: info(first.from), steps: steps)
        return Explanation(
          object: info(subject), verdict: attempt.isCycle ? .cycle(retainPath) : .heldByRoot(retainPath),
          method: .mirror, isTruncated: truncated, visitedCount: visited)
      }
    }
    let count = Self.retainCount(of: object)
    return Explanation(
      object: info(subject), verdict: .notVisible(retainCount: count), method: .mirror,
      isTruncated: truncated, visitedCount: visited)
  }
}
