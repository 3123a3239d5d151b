/// A colour from the terminal's basic palette.
///
/// The eight ANSI colours work on every colour terminal and look right under
/// any theme; ``default`` is the terminal's own foreground or background.
/// Terminals without colours (or with `NO_COLOR` set) drop colours and keep
/// attributes, so never carry meaning in colour alone.
public enum Color: Int, CaseIterable, Hashable, Sendable {
  /// The terminal's own foreground or background colour.
  case `default` = -1
  case black = 0
  case red
  case green
  case yellow
  case blue
  case magenta
  case cyan
  case white
}
