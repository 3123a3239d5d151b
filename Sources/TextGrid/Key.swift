/// A key the user pressed, decoded from the terminal's input.
///
/// Key bindings match on these values and show ``name`` in help text, so a
/// binding and its help cannot drift apart.
///
/// ```swift
/// switch key {
/// case .up, .character("k"): selection -= 1
/// case .character("q"), .control("c"): return .quit
/// default: break
/// }
/// print(Key.control("c").name)  // "Ctrl-C"
/// ```
public enum Key: Hashable, Sendable {
  /// A printable character, as typed (`"q"`, `"Q"`, `"?"`, `" "`, `"é"`).
  case character(Character)
  case up, down, left, right
  case enter, escape, backspace, tab, backTab
  case pageUp, pageDown, home, end, delete
  /// Function key `F1`…`F63`.
  case function(Int)
  /// A control chord, written with its lowercase letter: `.control("c")` is Ctrl-C.
  ///
  /// In the terminal's cbreak mode Ctrl-C, Ctrl-\ and Ctrl-Z raise signals
  /// instead of arriving as keys; the cases exist so bindings can name them.
  case control(Character)
  /// The terminal changed size; ask for the new size and redraw.
  case resize
  /// A click or a turn of the wheel (when the terminal reports the mouse).
  case mouse(MouseEvent)

  /// The key as help text shows it: `"q"`, `"↑"`, `"Enter"`, `"Esc"`, `"Ctrl-C"`, `"F5"`.
  public var name: String {
    switch self {
    case .character(" "): "Space"
    case .character(let character): String(character)
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .enter: "Enter"
    case .escape: "Esc"
    case .backspace: "Backspace"
    case .tab: "Tab"
    case .backTab: "Shift-Tab"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .home: "Home"
    case .end: "End"
    case .delete: "Del"
    case .function(let number): "F\(number)"
    case .control(let character): "Ctrl-\(character.uppercased())"
    case .resize: "Resize"
    case .mouse(let event):
      switch event.kind {
      case .press, .release: "Click"
      case .wheelUp, .wheelDown: "Wheel"
      }
    }
  }
}

extension Key {
  /// Decodes a character the terminal delivered as text (not as a key code).
  ///
  /// Carriage return and line feed are ``enter``, tab is ``tab``, DEL and
  /// backspace are ``backspace``, ESC is ``escape``, the other C0 controls are
  /// ``control(_:)`` chords with their lowercase letter.
  public init(text scalar: Unicode.Scalar) {
    switch scalar.value {
    case 0x0A, 0x0D: self = .enter
    case 0x09: self = .tab
    case 0x08, 0x7F: self = .backspace
    case 0x1B: self = .escape
    case 0x00: self = .control("@")
    case 0x01...0x1A: self = .control(Character(Unicode.Scalar(scalar.value + 0x60)!))
    case 0x1C...0x1F: self = .control(Character(Unicode.Scalar(scalar.value + 0x40)!))
    default: self = .character(Character(scalar))
    }
  }
}
