extension ReferenceGraph {
  /// The graph as a Mermaid flowchart, for a ```` ```mermaid ```` block in
  /// Markdown (GitHub, GitLab and most Markdown viewers render it).
  ///
  /// Node ids are the graph's stable ids; labels are quoted with Mermaid's
  /// entity codes for `"`, `<`, `>`, `#` and `|`. Strong references are
  /// solid arrows, all others dotted (`-.->`) with their strength in the
  /// label; the culprit is a thick arrow (`==>`) drawn red.
  ///
  /// ```swift
  /// print("```mermaid\n\(graph.mermaid())```")
  /// // flowchart TD
  /// //   AlertController_1["AlertController#1<br/>leaked"]
  /// //   AlertController_1 -->|"actions[1] (strong)"| AlertAction_1
  /// ```
  public func mermaid() -> String {
    var lines = ["flowchart TD"]
    for node in nodes {
      var parts = [node.title] + node.details
      if let caption = NodeBox.caption(of: node) { parts.append(caption) }
      let label = "\"" + parts.map(Self.mermaidText).joined(separator: "<br/>") + "\""
      let shape =
        node.isRoot ? "[[\(label)]]" : node.kind == .closure ? "(\(label))" : "[\(label)]"
      lines.append("  \(Self.identifier(for: node.id))\(shape)")
    }
    var culprits: [Int] = []
    for (index, edge) in edges.enumerated() {
      let arrow = edge.isCulprit ? "==>" : edge.strength == .strong ? "-->" : "-.->"
      if edge.isCulprit { culprits.append(index) }
      lines.append(
        "  \(Self.identifier(for: edge.from)) \(arrow)|\"\(Self.mermaidText(edge.caption))\"| "
          + Self.identifier(for: edge.to))
    }
    let leaked = nodes.filter(\.isLeaked).map { Self.identifier(for: $0.id) }
    if !leaked.isEmpty {
      lines.append("  classDef leaked stroke-width:3px")
      lines.append("  class \(leaked.joined(separator: ",")) leaked")
    }
    if !culprits.isEmpty {
      lines.append("  linkStyle \(culprits.map(String.init).joined(separator: ",")) stroke:red,color:red")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` with the characters Mermaid would read as syntax replaced by entity codes.
  static func mermaidText(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\"": escaped += "#quot;"
      case "#": escaped += "#35;"
      case "<": escaped += "#lt;"
      case ">": escaped += "#gt;"
      case "|": escaped += "#124;"
      case "\n", "\r", "\t": escaped += " "
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
