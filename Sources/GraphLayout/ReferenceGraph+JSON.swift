import Foundation

extension ReferenceGraph: Codable {
  private enum CodingKeys: String, CodingKey {
    case nodes, edges
  }

  /// Decodes a graph; edges whose ends are not nodes are dropped.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      nodes: try container.decode([Node].self, forKey: .nodes),
      edges: try container.decode([Edge].self, forKey: .edges))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(nodes, forKey: .nodes)
    try container.encode(edges, forKey: .edges)
  }

  /// The graph as JSON, keys sorted, for tools:
  /// `{"edges": [{"culprit", "from", "label", "strength", "to"}…], "nodes": [{"id", "kind", "leaked", "root", "title", "details"}…]}`.
  ///
  /// An edge's `closure` is present only for a closure whose context is its
  /// target. `strength` is one of `strong`, `weak`, `unowned`, `unmanaged`,
  /// `conservative`, `unknown`; `kind` one of `object`, `closure`, `collection`, `other`.
  ///
  /// ```swift
  /// let data = Data(graph.json().utf8)
  /// let decoded = try JSONDecoder().decode(ReferenceGraph.self, from: data)  // == graph
  /// ```
  public func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
