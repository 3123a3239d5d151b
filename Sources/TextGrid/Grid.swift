/// An in-memory screen of character cells: what the app renders, and what the
/// terminal layer copies to the real screen.
///
/// A grid is a value: rendering is a pure function from state to grid, tests
/// compare grids (or their text ``lines``) without a terminal, and the terminal
/// layer draws only the cells that differ from the previous frame.
///
/// Drawing never fails: text and boxes are clipped to the grid.
///
/// ```swift
/// var grid = Grid(size: Size(width: 24, height: 4))
/// let inner = grid.drawBox(grid.bounds, title: "Detector")
/// grid.put("No issues detected", at: inner.origin, style: .success)
/// print(grid)
/// // ┌─ Detector ───────────┐
/// // │No issues detected    │
/// // │                      │
/// // └──────────────────────┘
/// ```
public struct Grid: Hashable, Sendable {
  /// The number of columns and rows.
  public let size: Size
  /// The cells, row by row from the top-left.
  public private(set) var cells: [Cell]

  /// Creates a grid of blank cells in `style`.
  public init(size: Size, style: Style = .plain) {
    self.size = size
    self.cells = Array(repeating: Cell(" ", style: style), count: size.area)
  }

  /// The number of columns.
  public var width: Int { size.width }
  /// The number of rows.
  public var height: Int { size.height }
  /// The whole grid as a rectangle at `(0, 0)`.
  public var bounds: Rect { Rect(size: size) }

  /// The cell at column `x`, row `y`; both must be inside the grid.
  ///
  /// Setting a cell stores it as is; use ``put(_:at:style:maxWidth:)`` to write
  /// text, which keeps wide characters and their continuation cells whole.
  public subscript(x: Int, y: Int) -> Cell {
    get {
      precondition(bounds.contains(Point(x: x, y: y)), "(\(x), \(y)) is outside the \(size) grid")
      return cells[y * width + x]
    }
    set {
      precondition(bounds.contains(Point(x: x, y: y)), "(\(x), \(y)) is outside the \(size) grid")
      cells[y * width + x] = newValue
    }
  }

  /// The cell at `point`, which must be inside the grid.
  public subscript(point: Point) -> Cell {
    get { self[point.x, point.y] }
    set { self[point.x, point.y] = newValue }
  }

  /// Writes one line of text starting at `point`, clipped to the grid and to `maxWidth` columns.
  ///
  /// Wide characters take two columns; one that would stick out past the clip
  /// edge is replaced by a space. Control characters (tabs, newlines) are drawn
  /// as `�`: lay out lines yourself. Zero-width characters on their own are skipped.
  ///
  /// - Returns: the number of columns used, counted from `point.x` (including
  ///   columns clipped off the left edge).
  @discardableResult
  public mutating func put(
    _ text: some StringProtocol, at point: Point, style: Style = .plain, maxWidth: Int? = nil
  ) -> Int {
    guard point.y >= 0, point.y < height else { return 0 }
    let limit = maxWidth.map { min(width, point.x + max(0, $0)) } ?? width
    var x = point.x
    for character in text {
      let shown: Character = Self.isControl(character) ? "\u{FFFD}" : character
      let w = shown.displayWidth
      if w == 0 { continue }
      if x >= limit { break }
      if x + w > limit {
        // A wide character that does not fit: pad the last column instead.
        if x >= 0 { setCell(Cell(" ", style: style), x: x, y: point.y) }
        x += 1
        break
      }
      if x >= 0 {
        setCell(Cell(shown, style: style), x: x, y: point.y)
      } else if x + w > 0 {
        setCell(Cell(" ", style: style), x: 0, y: point.y)  // wide character cut by the left edge
      }
      x += w
    }
    return max(0, x - point.x)
  }

  /// Fills `rect` (clipped to the grid) with `character` in `style`.
  public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    let step = max(1, character.displayWidth)
    for y in area.minY..<area.maxY {
      var x = area.minX
      while x < area.maxX {
        setCell(Cell(x + step > area.maxX ? " " : character, style: style), x: x, y: y)
        x += step
      }
    }
  }

  /// Copies `other` into this grid with its top-left cell at `point`, clipped.
  public mutating func draw(_ other: Grid, at point: Point) {
    for y in 0..<other.height {
      for x in 0..<other.width {
        let cell = other[x, y]
        let target = Point(x: point.x + x, y: point.y + y)
        guard bounds.contains(target), !cell.isContinuation else { continue }
        setCell(cell, x: target.x, y: target.y)
      }
    }
  }

  /// Stores `cell` at `(x, y)`, keeping wide characters whole: a wide character
  /// partly overwritten becomes a space, and a wide `cell` claims the cell to its
  /// right (or becomes a space in the last column).
  private mutating func setCell(_ cell: Cell, x: Int, y: Int) {
    let row = y * width
    let cell = cell.width == 2 && x + 1 >= width ? Cell(" ", style: cell.style) : cell
    let span = cell.width == 2 ? 2 : 1
    for column in x..<(x + span) {
      breakWideCharacter(at: column, row: row)
    }
    cells[row + x] = cell
    if span == 2 {
      cells[row + x + 1] = .continuation(style: cell.style)
    }
  }

  /// Replaces the wide character covering `column` (its either half) by a space.
  private mutating func breakWideCharacter(at column: Int, row: Int) {
    let index = row + column
    if cells[index].isContinuation, column > 0 {
      cells[index - 1] = Cell(" ", style: cells[index - 1].style)
      cells[index] = Cell(" ", style: cells[index].style)
    } else if cells[index].width == 2, column + 1 < width {
      cells[index + 1] = Cell(" ", style: cells[index + 1].style)
    }
  }

  private static func isControl(_ character: Character) -> Bool {
    guard let first = character.unicodeScalars.first else { return false }
    return first.properties.generalCategory == .control
  }
}
