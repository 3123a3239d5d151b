/// The characters a box is drawn with.
///
/// ```swift
/// grid.drawBox(area, title: "Leaks", border: .ascii)
/// // +- Leaks ---+
/// // |           |
/// // +-----------+
/// ```
public struct BorderSet: Hashable, Sendable {
  public var horizontal: Character
  public var vertical: Character
  public var topLeft: Character
  public var topRight: Character
  public var bottomLeft: Character
  public var bottomRight: Character

  /// Creates a border set from its six characters.
  public init(
    horizontal: Character, vertical: Character, topLeft: Character, topRight: Character,
    bottomLeft: Character, bottomRight: Character
  ) {
    self.horizontal = horizontal
    self.vertical = vertical
    self.topLeft = topLeft
    self.topRight = topRight
    self.bottomLeft = bottomLeft
    self.bottomRight = bottomRight
  }

  /// Unicode light box drawing: `─ │ ┌ ┐ └ ┘`.
  public static let unicode = BorderSet(
    horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
  /// Unicode light box drawing with rounded corners: `╭ ╮ ╰ ╯`.
  public static let rounded = BorderSet(
    horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯")
  /// Plain ASCII, for terminals without a UTF-8 locale: `- | +`.
  public static let ascii = BorderSet(
    horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
}
