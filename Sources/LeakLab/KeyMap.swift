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
  public func action(for key: Key) -> AppAction? {
    lookup[key]
  }

  /// The status bar's hints in `context`: the short key label and the hint, in table order.
  public func statusHints(in context: KeyContext) -> [(keys: String, hint: String)] {
    bindings.compactMap { binding in
      guard let hint = binding.hint, binding.shownIn.contains(context) else { return nil }
      return (binding.statusLabel, hint)
    }
  }

  /// The help overlay's rows: every binding's keys and help text.
  public var helpRows: [(keys: String, help: String)] {
    bindings.map { ($0.keyLabel, $0.help) }
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

extension KeyMap {
  /// LeakLab's keys: arrows and j/k move, Enter opens, Esc closes, `w`
  /// switches strong/weak, 1–9 and Space tap actions, `o` overlay, `e`
  /// explain, `?` help, `q` and Ctrl-C quit.
  public static let standard = KeyMap([
    KeyBinding(
      [
        (.up, .moveUpPressed), (.down, .moveDownPressed),
        (.character("k"), .moveUpPressed), (.character("j"), .moveDownPressed),
      ],
      label: "↑↓ k j",
      help: "Select the previous or next scenario (in the explain view: the leak)",
      hint: "select", shownIn: [.browsing, .explain]),
    KeyBinding(
      [.enter], .openKeyPressed, help: "Open the selected scenario: push its screen on the phone",
      hint: "open", shownIn: [.browsing]),
    KeyBinding(
      [.escape, .left, .backspace], .closeKeyPressed,
      help: "Close the alert or screen on top (closing the screen starts the leak check)",
      hint: "close", shownIn: [.scenario, .alert, .help, .explain]),
    KeyBinding(
      [.character("w")], .captureToggled,
      help: "Switch the selected scenario between strong (leaky) and weak (fixed)",
      hint: "strong/weak", shownIn: [.browsing]),
    KeyBinding(
      (1...9).map { (Key.character(Character(String($0))), AppAction.actionKeyPressed($0)) },
      label: "1–9",
      help: "Tap the action with that number: the alert's if one is shown, else the screen's",
      hint: "action", shownIn: [.scenario, .alert]),
    KeyBinding(
      [.character(" ")], .actionKeyPressed(1), help: "Tap the first action", shownIn: []),
    KeyBinding(
      [.character("o")], .overlayKeyPressed,
      help: "Show the detector overlay always, only with issues, or never",
      hint: "overlay", shownIn: [.browsing, .scenario]),
    KeyBinding(
      [.character("e")], .explainKeyPressed,
      help: "Explain: each leaked instance's retain graph, drawn, with the fix",
      hint: "explain", shownIn: [.browsing, .scenario, .explain]),
    KeyBinding(
      [(.pageUp, .pageUpPressed), (.pageDown, .pageDownPressed)], label: "PgUp/PgDn",
      help: "Scroll the explain view when its drawing is taller than the screen",
      hint: "scroll", shownIn: [.explain]),
    KeyBinding([.character("?")], .helpKeyPressed, help: "Show or hide this help", hint: "help"),
    KeyBinding([.character("q"), .control("c")], .quitKeyPressed, help: "Quit", hint: "quit"),
  ])
}
