/// One character cell of a ``Grid``: a grapheme and its style.
///
/// A wide character (CJK, most emoji) takes two cells: the cell holding the
/// character, and a *continuation* cell to its right that holds nothing of its
/// own. The terminal layer skips continuation cells when it draws.
public struct Cell: Hashable, Sendable {
  /// The grapheme shown in this cell (a space when blank; unused in a continuation cell).
  public var character: Character
  /// How the cell is drawn.
  public var style: Style
  /// Whether this is the right half of the wide character in the cell to its left.
  public var isContinuation: Bool

  /// Creates a cell holding `character`.
  public init(_ character: Character, style: Style = .plain) {
    self.character = character
    self.style = style
    self.isContinuation = false
  }

  /// A space in the plain style.
  public static let blank = Cell(" ")

  /// The right half of a wide character drawn in `style`.
  public static func continuation(style: Style) -> Cell {
    var cell = Cell(" ", style: style)
    cell.isContinuation = true
    return cell
  }

  /// The number of columns the cell's character takes: 0 for a continuation cell, else 1 or 2.
  public var width: Int {
    isContinuation ? 0 : max(1, character.displayWidth)
  }
}
