extension Grid {
  /// Copies the part of `content` that starts at `offset` into `rect`,
  /// clipped to both: a viewport onto content larger than the area it is shown in.
  ///
  /// A wide character cut by the left edge of the window shows as a space.
  /// Cells of `rect` that `content` does not reach are left as they are.
  ///
  /// ```swift
  /// // Rows 10… and columns 4… of a tall, wide picture, in a 40×8 pane.
  /// grid.draw(picture, from: Point(x: 4, y: 10), in: Rect(x: 1, y: 1, width: 40, height: 8))
  /// ```
  public mutating func draw(_ content: Grid, from offset: Point, in rect: Rect) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    for row in 0..<area.height {
      let sourceY = offset.y + (area.minY - rect.minY) + row
      guard sourceY >= 0, sourceY < content.height else { continue }
      var column = 0
      while column < area.width {
        let sourceX = offset.x + (area.minX - rect.minX) + column
        let target = Point(x: area.minX + column, y: area.minY + row)
        guard sourceX >= 0, sourceX < content.width else {
          column += 1
          continue
        }
        let cell = content[sourceX, sourceY]
        if cell.isContinuation {
          // The right half of a wide character whose left half is outside the window.
          put(" ", at: target, style: cell.style)
          column += 1
          continue
        }
        if cell.width == 2, column + 1 >= area.width {
          put(" ", at: target, style: cell.style)
          column += 1
          continue
        }
        put(String(cell.character), at: target, style: cell.style)
        column += cell.width
      }
    }
  }

  /// A grid just large enough for `lines` (at least 1×1 when empty), one per
  /// row from the top, each in its style: content for a scrolling pane.
  ///
  /// ```swift
  /// let content = Grid(lines: [("retain cycle: A#1", .plain), ("  → b: B#1", .muted)])
  /// content.size  // 17×2
  /// ```
  public init(lines: [(String, Style)]) {
    let width = max(1, lines.map(\.0.displayWidth).max() ?? 0)
    self.init(size: Size(width: width, height: max(1, lines.count)))
    for (row, line) in lines.enumerated() {
      put(line.0, at: Point(x: 0, y: row), style: line.1)
    }
  }
}
