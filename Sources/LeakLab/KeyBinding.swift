import TextGrid

/// One row of the key map: keys, the action each sends, and the help text.
///
/// The status bar and the `?` overlay are drawn from these rows, so a key
/// cannot work without being documented, nor be documented without working.
///
/// ```swift
/// KeyBinding(
///   [.character("o")], .overlayKeyPressed,
///   help: "Overlay: always, only with issues, hidden", hint: "overlay",
///   shownIn: [.browsing, .scenario])
/// ```
public struct KeyBinding: Equatable, Sendable {
  /// The keys, in the order help lists them.
  public let keys: [Key]
  /// The action each key sends, one per key.
  public let actions: [AppAction]
  /// How help and the status bar spell the keys: `↑↓ j k`, `1–9`.
  public let keyLabel: String
  /// What the keys do, in a sentence, for the help overlay.
  public let help: String
  /// A word or two for the status bar; `nil` keeps the binding out of it.
  public let hint: String?
  /// Where the status bar shows the hint.
  public let shownIn: Set<KeyContext>
  /// Other words for the hint in some contexts (`↑↓ scroll` in a pane, `↑↓ select` in the list).
  public let hintOverrides: [KeyContext: String]

  /// A binding whose keys all send `action`.
  public init(
    _ keys: [Key], _ action: AppAction, label: String? = nil, help: String, hint: String? = nil,
    shownIn: Set<KeyContext> = Set(KeyContext.allCases), hintOverrides: [KeyContext: String] = [:]
  ) {
    self.init(
      keys.map { ($0, action) }, label: label, help: help, hint: hint, shownIn: shownIn,
      hintOverrides: hintOverrides)
  }

  /// A binding in which each key sends its own action (`1` … `9`).
  public init(
    _ pairs: [(Key, AppAction)], label: String? = nil, help: String, hint: String? = nil,
    shownIn: Set<KeyContext> = Set(KeyContext.allCases), hintOverrides: [KeyContext: String] = [:]
  ) {
    precondition(!pairs.isEmpty, "a binding needs at least one key")
    keys = pairs.map(\.0)
    actions = pairs.map(\.1)
    keyLabel = label ?? pairs.map(\.0.name).joined(separator: " ")
    self.help = help
    self.hint = hint
    self.shownIn = shownIn
    self.hintOverrides = hintOverrides
  }
}
