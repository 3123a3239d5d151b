extension Grid: CustomStringConvertible {
  /// The grid's text, one string per row, with trailing spaces trimmed.
  ///
  /// A wide character appears once (its continuation cell adds nothing), so
  /// each line shows as the screen would in a monospaced font.
  public var lines: [String] {
    (0..<height).map { y in
      // Up to the last cell that is not a space: no trimming pass afterwards.
      let row = cells[(y * width)..<((y + 1) * width)]
      guard let last = row.lastIndex(where: { $0.character != " " }) else { return "" }
      var line = ""
      for cell in row[row.startIndex...last] where !cell.isContinuation {
        line.append(cell.character)
      }
      return line
    }
  }

  /// The grid's text with styles marked, for snapshots that check styles.
  ///
  /// Each run of cells in a style other than ``Style/plain`` is wrapped as
  /// `[style]text[/]`, the style spelled as in ``Style/description``.
  /// Trailing plain spaces are trimmed; trailing styled spaces are kept.
  ///
  /// ```swift
  /// grid.put("Leaked", at: .zero, style: .alert)
  /// grid.styledLines[0]  // "[bold red]Leaked[/]"
  /// ```
  public var styledLines: [String] {
    (0..<height).map { y in
      var runs: [(style: Style, text: String)] = []
      for x in 0..<width where !self[x, y].isContinuation {
        let cell = self[x, y]
        if let last = runs.last, last.style == cell.style {
          runs[runs.count - 1].text.append(cell.character)
        } else {
          runs.append((cell.style, String(cell.character)))
        }
      }
      if let last = runs.last, last.style == .plain {
        runs[runs.count - 1].text = String(last.text.reversed().drop(while: { $0 == " " }).reversed())
      }
      return runs.map { $0.style == .plain ? $0.text : "[\($0.style)]\($0.text)[/]" }.joined()
    }
  }

  /// The ``lines`` joined with newlines.
  public var description: String { lines.joined(separator: "\n") }
}

extension Style: CustomStringConvertible {
  /// The style in words: attributes, then colours, e.g. `bold red on blue`, or `plain`.
  public var description: String {
    var words: [String] = []
    let names: [(Attributes, String)] = [
      (.bold, "bold"), (.dim, "dim"), (.reverse, "reverse"), (.underline, "underline"),
    ]
    for (attribute, name) in names where attributes.contains(attribute) {
      words.append(name)
    }
    if foreground != .default { words.append("\(foreground)") }
    if background != .default { words.append("on \(background)") }
    return words.isEmpty ? "plain" : words.joined(separator: " ")
  }
}
