import GraphLayout

/// Plain words by default: the steps of a retain path through memory the
/// explainer has no type for (`malloc block, 72 B`, `heap object`) are
/// folded into one, which says how many there are; `d` shows them.
///
/// Exact steps (a field, a capture, a Swift object's word) stay as they are:
/// only a step *into* an untyped block is folded, with the runs of such
/// steps after it.
///
/// ```swift
/// MemoryDetailFolding.fold(
///   "held from root: global q in libdispatch.so → (conservative) malloc block, 72 B"
///     + " → (conservative) word 5: Screen#1 (strong)")
/// // "held from root: global q in libdispatch.so → 1 untyped block (d shows it)"
/// //   + " → (conservative) word 5: Screen#1 (strong)"
/// ```
enum MemoryDetailFolding {
  /// Whether a node's or a step's target is memory without a type.
  static func isUntyped(_ target: String) -> Bool {
    target.contains("malloc block") || target == "heap object" || target.hasPrefix("heap object ")
  }

  /// The text path with its untyped steps folded.
  static func fold(_ path: String) -> String {
    let steps = path.components(separatedBy: " → ")
    var result: [String] = []
    var folded = 0
    var field = ""
    func flush() {
      guard folded > 0 else { return }
      result.append(field + Self.summary(folded))
      folded = 0
      field = ""
    }
    for (index, step) in steps.enumerated() {
      let parts = step.split(separator: ": ", maxSplits: 1).map(String.init)
      let target = parts.last ?? step
      if index > 0, isUntyped(target) {
        // The exact field the run starts from stays: `task._task: 1 untyped block`.
        if folded == 0, parts.count == 2, !parts[0].hasPrefix("(conservative)") { field = parts[0] + ": " }
        folded += 1
      } else {
        flush()
        result.append(step)
      }
    }
    flush()
    return result.joined(separator: " → ")
  }

  /// `1 untyped block (d shows it)`, `3 untyped blocks (d shows them)`.
  static func summary(_ count: Int) -> String {
    count == 1 ? "1 untyped block (d shows it)" : "\(count) untyped blocks (d shows them)"
  }

  /// The graph with each chain of untyped nodes (one reference in, one out)
  /// replaced by a single conservative reference that says how many it hides.
  static func fold(_ graph: ReferenceGraph) -> ReferenceGraph {
    var nodes = graph.nodes
    var edges = graph.edges
    var hidden: [String: Int] = [:]  // an edge's id → how many nodes it stands for
    func key(_ edge: ReferenceGraph.Edge) -> String { "\(edge.from)→\(edge.to)→\(edge.label)" }
    while let node = nodes.first(where: { node in
      isUntyped(node.title) && !node.isRoot && !node.isLeaked
        && edges.count(where: { $0.to == node.id }) == 1 && edges.count(where: { $0.from == node.id }) == 1
    }) {
      let incoming = edges.first { $0.to == node.id }!
      let outgoing = edges.first { $0.from == node.id }!
      let count = (hidden[key(incoming)] ?? 0) + 1 + (hidden[key(outgoing)] ?? 0)
      // The exact reference the chain starts from keeps its name: `task._task, then 1 untyped block`.
      let start = incoming.strength == .conservative ? "" : incoming.fullLabel + ", then "
      let joined = ReferenceGraph.Edge(
        from: incoming.from, to: outgoing.to, label: start + summary(count), strength: .conservative,
        isCulprit: incoming.isCulprit || outgoing.isCulprit)
      let position = edges.firstIndex(of: incoming)!
      edges.removeAll { $0 == incoming || $0 == outgoing }
      edges.insert(joined, at: min(position, edges.count))
      hidden[key(joined)] = count
      nodes.removeAll { $0.id == node.id }
    }
    return ReferenceGraph(nodes: nodes, edges: edges)
  }
}
