import TextGrid

/// A node drawn as a box: its title, its details, a caption in the top
/// border (`root`, `leaked`), and a border that tells its kind.
///
/// ```
/// ┌────────── leaked ─┐  ╭─────────────────────────────────╮  ╔═════════════ root ═╗
/// │ AlertController#1 │  │ closure                         │  ║ NotificationCenter ║
/// └───────────────────┘  │ in DraftsScreen.confirmDelete() │  ╚════════════════════╝
///                        ╰─────────────────────────────────╯
/// ```
struct NodeBox {
  /// The node drawn.
  let node: ReferenceGraph.Node
  /// The text inside the border, one line a row.
  let lines: [(text: String, style: Style)]
  /// The box with its border.
  let size: Size
  /// Where the box is; set by the layout.
  var origin = Point.zero

  /// The rows inside the border.
  var interiorRows: Int { size.height - 2 }
  /// The box as placed.
  var rect: Rect { Rect(origin: origin, size: size) }

  /// Lays out `node` in at most `maxWidth` columns (but at least `minWidth`)
  /// with at least `minInteriorRows` rows inside.
  init(_ node: ReferenceGraph.Node, maxWidth: Int, minWidth: Int = 0, minInteriorRows: Int = 1) {
    self.node = node
    let room = max(4, maxWidth - 4)
    var lines: [(String, Style)] = [(node.title.truncated(toWidth: room), node.isLeaked ? .title : .plain)]
    for detail in node.details {
      lines += Wrapping.lines(detail, width: room).map { ($0, Style.muted) }
    }
    while lines.count < minInteriorRows { lines.append(("", .plain)) }
    self.lines = lines
    let content = lines.map(\.0.displayWidth).max() ?? 0
    let captionWidth = Self.caption(of: node).map { $0.displayWidth + 8 } ?? 0
    size = Size(width: max(content + 4, captionWidth, minWidth, 8), height: lines.count + 2)
  }

  /// `root`, `leaked`, both, or nothing.
  static func caption(of node: ReferenceGraph.Node) -> String? {
    switch (node.isRoot, node.isLeaked) {
    case (true, true): "root · leaked"
    case (true, false): "root"
    case (false, true): "leaked"
    case (false, false): nil
    }
  }

  /// The border: double for a root, rounded for a closure, else light.
  var border: BorderSet {
    if node.isRoot { return Self.double }
    return node.kind == .closure ? .rounded : .unicode
  }

  private static let double = BorderSet(
    horizontal: "═", vertical: "║", topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝")

  /// Draws the box, its text and its caption.
  func draw(on grid: inout Grid) {
    let style: Style = node.isLeaked ? .title : .plain
    let inner = grid.drawBox(rect, style: style, border: border)
    for (row, line) in lines.enumerated() where row < inner.height {
      grid.put(line.text, at: Point(x: inner.minX + 1, y: inner.minY + row), style: line.style)
    }
    if let caption = Self.caption(of: node) {
      let x = rect.maxX - 3 - caption.displayWidth
      grid.put(" \(caption) ", at: Point(x: x - 1, y: rect.minY), style: style)
    }
  }

  // MARK: Attachment points

  /// The cell of the bottom border where a trunk leaves the box.
  var trunk: Point { Point(x: origin.x + 2, y: rect.maxY - 1) }
  /// The cell of the top border where an arrow from above comes in.
  var top: Point { Point(x: origin.x + 2, y: origin.y) }
  /// Row `index` inside the box (0 is the first row under the top border).
  func interiorRow(_ index: Int) -> Int { origin.y + 1 + min(index, max(0, interiorRows - 1)) }
}
