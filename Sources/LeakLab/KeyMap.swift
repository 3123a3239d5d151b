import TextGrid

/// The key bindings as data: a table that the key handler looks keys up in,
/// and that the status bar and the help overlay are drawn from.
///
/// ```swift
/// let keyMap = KeyMap.standard
/// keyMap.action(for: .character("w"))  // .captureToggled
/// keyMap.statusHints(in: .browsing)    // [("↑↓", "select"), ("Enter", "open"), …]
/// ```
public struct KeyMap: Equatable, Sendable {
  /// The bindings, in the order help lists them.
  public let bindings: [KeyBinding]
  private let lookup: [Key: AppAction]

  /// Creates a key map; a key may appear in one binding only.
  public init(_ bindings: [KeyBinding]) {
    self.bindings = bindings
    var lookup: [Key: AppAction] = [:]
    for binding in bindings {
      for (key, action) in zip(binding.keys, binding.actions) {
        precondition(lookup[key] == nil, "\(key.name) is bound twice")
        lookup[key] = action
      }
    }
    self.lookup = lookup
  }

  /// The action `key` sends, or `nil` when it is not bound.
  ///
  /// A mouse event is looked up by its kind (bindings name it at cell zero)
  /// and sent with its own cell: `.mouseUsed(event)`.
  public func action(for key: Key) -> AppAction? {
    guard case .mouse(let event) = key else { return lookup[key] }
    guard case .mouseUsed = lookup[.mouse(MouseEvent(event.kind, at: .zero))] else { return nil }
    return .mouseUsed(event)
  }

  /// The keys that send `action`, in table order.
  public func keys(for action: AppAction) -> [Key] {
    bindings.flatMap { binding in zip(binding.keys, binding.actions).filter { $0.1 == action }.map(\.0) }
  }

  /// The status bar's hints in `context`: the short key label and the hint, in table order.
  public func statusHints(in context: KeyContext) -> [(keys: String, hint: String)] {
    bindings.compactMap { binding in
      guard let hint = binding.hint, binding.shownIn.contains(context) else { return nil }
      return (binding.statusLabel, binding.hintOverrides[context] ?? hint)
    }
  }

  /// The help overlay's rows: every binding's keys and help text.
  public var helpRows: [(keys: String, help: String)] {
    bindings.map { ($0.keyLabel, $0.help) }
  }

  /// The keys as plain text, one binding a line, for `leaklab --help`.
  ///
  /// ```text
  ///   ↑↓ k j         Move: the catalogue's selection, …
  ///   Enter          Open the selected scenario: push its screen on the phone
  /// ```
  public func plainTextTable(width: Int = 80) -> String {
    let keysWidth = (helpRows.map(\.keys.displayWidth).max() ?? 0) + 2
    var lines: [String] = []
    for row in helpRows {
      let wrapped = TextWrapping.words(row.help, width: max(20, width - 2 - keysWidth))
      for (index, text) in wrapped.enumerated() {
        let keys = index == 0 ? row.keys : ""
        lines.append("  " + keys.padded(toWidth: keysWidth) + text)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The keys as a Markdown table (the README's table is checked against it).
  public var markdownTable: String {
    var lines = ["| Keys | What they do |", "|---|---|"]
    for row in helpRows {
      let keys = row.keys.split(separator: " ").map { "`\($0)`" }.joined(separator: " ")
      lines.append("| \(keys) | \(row.help) |")
    }
    return lines.joined(separator: "\n")
  }
}

extension KeyBinding {
  /// The keys as the status bar shows them: the label's first word (`↑↓`, `Esc`, `1–9`).
  public var statusLabel: String {
    String(keyLabel.split(separator: " ").first ?? Substring(keyLabel))
  }
}
