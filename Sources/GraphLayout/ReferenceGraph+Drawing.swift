import TextGrid

extension ReferenceGraph {
  /// Which way a drawing runs.
  public enum Orientation: String, Sendable, CaseIterable {
    /// In a row when the graph is a chain and that fits the size, else stacked.
    case automatic
    /// Boxes stacked top to bottom; edges that close cycles come back up on the right.
    case vertical
    /// A chain's boxes in one row; edges that close cycles come back underneath.
    /// A graph that is not a chain is drawn vertically.
    case horizontal
  }

  /// Draws the graph with box-drawing characters, fitting `size` if it can.
  ///
  /// One box per node (a closure's box has round corners, a root's a double
  /// border; `root` / `leaked` in the top border). Each arrow carries its
  /// label and strength: strong references are solid (`│ ▼`), weak, unowned
  /// and unmanaged ones dashed with hollow heads (`╎ ▽`, `┆`, `┊`), a
  /// conservative hop broken and heavy (`┇`), and the culprit heavy in
  /// bold red (`┃`), so it stays visible without colour.
  ///
  /// A chain that fits is drawn in a row, a longer plain cycle in a ring of
  /// two rows if that fits; anything else stacks vertically, which reads at
  /// 80 columns. The grid is exactly as large as the drawing:
  /// when that is larger than `size` (a big graph on a small screen), the
  /// caller scrolls it.
  ///
  /// ```swift
  /// let picture = graph.draw(fitting: Size(width: 80, height: 24))
  /// grid.draw(picture, at: area.origin)
  /// ```
  public func draw(fitting size: Size, orientation: Orientation = .automatic) -> Grid {
    guard !isEmpty else { return Grid(size: .zero) }
    let outline = GraphOutline(self)
    if orientation != .vertical, outline.isChain {
      // In a row only with every label and title whole: else stacking reads better.
      let labelWidth = edges.map(\.caption.displayWidth).max() ?? 0
      let row = HorizontalDrawing(outline, boxWidth: 64, labelWidth: labelWidth)
      if row.size.fits(in: size) || orientation == .horizontal { return row.grid }
      // A long cycle: two rows, closed on the left, if that fits.
      if RingDrawing.applies(to: outline) {
        let ring = RingDrawing(outline, boxWidth: 64, labelWidth: labelWidth)
        if ring.size.fits(in: size) { return ring.grid }
      }
    }
    return verticalDrawing(outline, width: size.width)
  }

  /// The vertical drawing, narrowed step by step until it fits `width` (or cannot narrow further).
  private func verticalDrawing(_ outline: GraphOutline, width: Int) -> Grid {
    let channels = 2 * outline.extras.count + 2
    var budget = max(width, 24)
    var narrowest: VerticalDrawing?
    while true {
      let boxWidth = max(16, min(60, budget - channels - 2))
      let labelWidth = max(12, min(72, budget - 6 - channels))
      let drawing = VerticalDrawing(outline, boxWidth: boxWidth, labelWidth: labelWidth)
      if drawing.size.width <= width { return drawing.grid }
      if narrowest.map({ drawing.size.width < $0.size.width }) ?? true { narrowest = drawing }
      if boxWidth == 16, labelWidth == 12 { return (narrowest ?? drawing).grid }
      budget -= 4
    }
  }

  /// A key to the line styles used in this graph, wrapped to `width` columns:
  /// `│ strong  ╎ weak  ┇ conservative  ┃ culprit: breaks the cycle`.
  ///
  /// ```swift
  /// grid.draw(graph.legend(width: 80), at: Point(x: 0, y: picture.height + 1))
  /// ```
  public func legend(width: Int) -> Grid {
    var entries: [(String, Style)] = []
    for strength in Strength.allCases
    where edges.contains(where: { $0.strength == strength && !$0.isCulprit }) {
      let pen = EdgePen.pen(for: Edge(from: "", to: "", label: "", strength: strength))
      entries.append(("\(pen.vertical) \(strength.rawValue)", pen.style))
    }
    if edges.contains(where: \.isCulprit) {
      entries.append(("┃ culprit: the reference to break", EdgePen.culpritStyle))
    }
    var rows: [[(String, Style)]] = [[]]
    var used = 0
    for entry in entries {
      let w = entry.0.displayWidth
      if used > 0, used + 2 + w > width {
        rows.append([])
        used = 0
      }
      rows[rows.count - 1].append(entry)
      used += (used > 0 ? 2 : 0) + w
    }
    let lineWidth = rows.map { row in row.map(\.0.displayWidth).reduce(0, +) + 2 * max(0, row.count - 1) }
      .max()
    var grid = Grid(size: Size(width: lineWidth ?? 0, height: entries.isEmpty ? 0 : rows.count))
    for (y, row) in rows.enumerated() {
      var x = 0
      for (text, style) in row {
        x += grid.put(text, at: Point(x: x, y: y), style: style) + 2
      }
    }
    return grid
  }
}
