extension ReferenceGraph {
  /// The graph in Graphviz's DOT language: `dot -Tsvg graph.dot > graph.svg`.
  ///
  /// Node ids are the graph's stable ids; each node's label is its title and
  /// details, each edge's its field and strength. Weak, unowned and
  /// unmanaged references are dashed or dotted with hollow heads, a
  /// conservative hop is dashed and amber, the culprit red and thick; roots
  /// have a double border, leaked objects a bold one, closures round corners.
  ///
  /// ```swift
  /// try graph.dot().write(toFile: "leak.dot", atomically: true, encoding: .utf8)
  /// // digraph retain {
  /// //   "AlertController_1" [label="AlertController#1\nleaked", style="bold"];
  /// //   "AlertController_1" -> "AlertAction_1" [label="actions[1] (strong)"];
  /// //   …
  /// ```
  public func dot(name: String = "retain") -> String {
    var lines = ["digraph \(Self.dotString(name)) {"]
    lines.append("  graph [rankdir=TB, fontname=\"monospace\"];")
    lines.append("  node [shape=box, fontname=\"monospace\"];")
    lines.append("  edge [fontname=\"monospace\"];")
    for node in nodes {
      var label = ([node.title] + node.details).joined(separator: "\n")
      if let caption = NodeBox.caption(of: node) { label += "\n" + caption }
      var attributes = ["label=\(Self.dotString(label))"]
      var styles: [String] = []
      if node.kind == .closure { styles.append("rounded") }
      if node.isLeaked { styles.append("bold") }
      if !styles.isEmpty { attributes.append("style=\(Self.dotString(styles.joined(separator: ",")))") }
      if node.isRoot { attributes.append("peripheries=2") }
      lines.append("  \(Self.dotString(node.id)) [\(attributes.joined(separator: ", "))];")
    }
    for edge in edges {
      var attributes = ["label=\(Self.dotString(edge.caption))"]
      switch edge.strength {
      case .strong: break
      case .weak: attributes += ["style=dashed", "arrowhead=empty"]
      case .unowned: attributes += ["style=dotted", "arrowhead=empty"]
      case .unmanaged: attributes += ["style=dotted", "arrowhead=odot"]
      case .conservative: attributes += ["style=dashed", "color=\"#b8860b\"", "fontcolor=\"#b8860b\""]
      case .unknown: attributes += ["style=dotted"]
      }
      if edge.isCulprit { attributes += ["color=red", "fontcolor=red", "penwidth=2.5"] }
      lines.append(
        "  \(Self.dotString(edge.from)) -> \(Self.dotString(edge.to)) [\(attributes.joined(separator: ", "))];"
      )
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` as a quoted DOT string: quotes and backslashes escaped, newlines as `\n`.
  static func dotString(_ text: String) -> String {
    var quoted = "\""
    for character in text {
      switch character {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\r", "\t": quoted += " "
      default: quoted.append(character)
      }
    }
    return quoted + "\""
  }
}
