import Foundation
import GraphLayout

/// The leaky form's retain graph of each catalogue scenario, as `leaklab
/// explain` draws it without the memory search, recorded
/// (`ScenarioGraphs+Recorded.swift`): the explain view of a fixed form draws
/// it with the reference the fix breaks dashed. A LeakLabTests test runs
/// every leaky form again and fails when the record is stale
/// (`LEAKLAB_RECORD_SNAPSHOTS=1` rewrites it).
///
/// ```swift
/// let leaky = ScenarioGraphs.strongForm(of: "strong-delegate")!
/// ScenarioGraphs.fixed(leaky).edges.first { $0.label == "delegate" }?.strength  // .weak
/// ```
enum ScenarioGraphs {
  /// The recorded graphs, decoded once.
  private static let graphs: [String: ReferenceGraph] = recordedJSON.compactMapValues { json in
    try? JSONDecoder().decode(ReferenceGraph.self, from: Data(json.utf8))
  }

  /// The leaky form's graph of the scenario `id`, if one was recorded.
  static func strongForm(of id: String) -> ReferenceGraph? {
    graphs[id]
  }

  /// `graph` as the fixed form leaves it: the culprit reference weak (dashed,
  /// no longer the culprit) and nothing leaked.
  static func fixed(_ graph: ReferenceGraph) -> ReferenceGraph {
    let nodes = graph.nodes.map { node in
      var node = node
      node.isLeaked = false
      return node
    }
    let edges = graph.edges.map { edge in
      var edge = edge
      if edge.isCulprit {
        edge.strength = .weak
        edge.isCulprit = false
      }
      return edge
    }
    return ReferenceGraph(nodes: nodes, edges: edges)
  }
}
