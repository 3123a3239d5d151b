import TextGrid

/// The wide layout for a long cycle: the chain in two rows, the first left
/// to right, the second right to left under it, and the edge that closes
/// the cycle coming back up on the left — a ring. Used when one row is too
/// wide but the ring fits; only for a chain whose one leftover edge goes
/// from its last node to its first (a plain cycle).
///
/// ```
///    ┌─── leaked ─┐                       ┌─────────────┐
/// ┏━▶│ Screen#1   ├─ presenter (strong) ─▶│ Presenter#1 │
/// ┃  └────────────┘                       └───────────┬─┘
/// ┃                                                   │ interactor (strong)
/// ┃      ┌──────────┐                    ┌────────────▼─┐
/// ┃      │ Router#1 │◀─ router (strong) ─┤ Interactor#1 │
/// ┃      └─┰────────┘                    └──────────────┘
/// ┗━━━━━━━━┛ screen (strong)
/// ```
struct RingDrawing {
  private let outline: GraphOutline
  private let graph: ReferenceGraph
  private var boxes: [NodeBox]
  private var canvas = LineCanvas()
  private var overlays: [(point: Point, text: String, style: Style)] = []
  private var width = 0
  private var height = 0

  /// Whether `outline` can be drawn as a ring: a chain of at least four
  /// nodes whose only leftover edge closes it from the last node to the first.
  static func applies(to outline: GraphOutline) -> Bool {
    let chain = outline.chain
    guard outline.isChain, chain.count >= 4, outline.extras.count == 1, let e = outline.extras.first else {
      return false
    }
    return outline.source(of: e) == chain.last && outline.target(of: e) == chain.first
  }

  /// Lays out `outline`, which must satisfy ``applies(to:)``.
  init(_ outline: GraphOutline, boxWidth: Int, labelWidth: Int) {
    self.outline = outline
    self.graph = outline.graph
    let nodes = outline.graph.nodes
    boxes = nodes.indices.map { NodeBox(nodes[$0], maxWidth: boxWidth) }
    let chain = outline.chain
    let top = Array(chain.prefix((chain.count + 1) / 2))
    let bottom = Array(chain.dropFirst(top.count))
    let caption = { (node: Int) -> String in
      outline.spine(of: node).map { outline.graph.edges[$0].caption.truncated(toWidth: max(8, labelWidth)) }
        ?? ""
    }
    // The top row, left to right, after a channel of three columns for the closing edge.
    var x = 3
    for (i, node) in top.enumerated() {
      boxes[node].origin = Point(x: x, y: 0)
      if i + 1 < top.count { x = boxes[node].rect.maxX + caption(node).displayWidth + 5 }
    }
    let topHeight = top.map { boxes[$0].size.height }.max() ?? 0
    // The turn: down from the last box of the top row, its label beside.
    let turn = top[top.count - 1]
    let turnX = boxes[turn].rect.maxX - 3
    let bottomY = topHeight + 1
    // The bottom row, right to left, its first box under the turn.
    var right = boxes[turn].rect.maxX
    for (i, node) in bottom.enumerated() {
      boxes[node].origin = Point(x: right - boxes[node].size.width, y: bottomY)
      if i + 1 < bottom.count {
        right = boxes[node].origin.x - caption(node).displayWidth - 5
      }
    }
    let shift = max(0, 3 - (bottom.map { boxes[$0].origin.x }.min() ?? 3))
    for node in chain { boxes[node].origin.x += shift }
    width = chain.map { boxes[$0].rect.maxX }.max() ?? 0
    height = bottomY + (bottom.map { boxes[$0].size.height }.max() ?? 0)
    drawTop(top, caption: caption)
    drawTurn(from: turn, to: bottom[0], x: turnX + shift, caption: caption(turn))
    drawBottom(bottom, caption: caption)
    drawClosing(from: bottom[bottom.count - 1], to: top[0], labelWidth: max(8, labelWidth))
  }

  private mutating func drawTop(_ top: [Int], caption: (Int) -> String) {
    for (node, next) in zip(top, top.dropFirst()) {
      let e = outline.spine(of: node)!
      let pen = EdgePen.pen(for: graph.edges[e])
      let row = boxes[node].interiorRow(0)
      let head = boxes[next].origin.x - 1
      canvas.line(from: Point(x: boxes[node].rect.maxX - 1, y: row), to: Point(x: head, y: row), pen: pen)
      overlays.append((Point(x: boxes[node].rect.maxX - 1, y: row), pen.isHeavy ? "┝" : "├", pen.style))
      overlays.append((Point(x: boxes[node].rect.maxX + 1, y: row), " \(caption(node)) ", pen.style))
      overlays.append((Point(x: head, y: row), String(pen.heads.right), pen.style))
    }
  }

  private mutating func drawTurn(from node: Int, to next: Int, x: Int, caption: String) {
    let e = outline.spine(of: node)!
    let pen = EdgePen.pen(for: graph.edges[e])
    let start = Point(x: x, y: boxes[node].rect.maxY - 1)
    let end = Point(x: x, y: boxes[next].origin.y)
    canvas.line(from: start, to: end, pen: pen)
    overlays.append((start, pen.isHeavy ? "┰" : "┬", pen.style))
    overlays.append((end, String(pen.heads.down), pen.style))
    overlays.append((Point(x: x + 2, y: boxes[node].rect.maxY), caption, pen.style))
    width = max(width, x + 2 + caption.displayWidth)
  }

  private mutating func drawBottom(_ bottom: [Int], caption: (Int) -> String) {
    for (node, next) in zip(bottom, bottom.dropFirst()) {
      let e = outline.spine(of: node)!
      let pen = EdgePen.pen(for: graph.edges[e])
      let row = boxes[node].interiorRow(0)
      let head = boxes[next].rect.maxX
      canvas.line(from: Point(x: boxes[node].origin.x, y: row), to: Point(x: head, y: row), pen: pen)
      overlays.append((Point(x: boxes[node].origin.x, y: row), pen.isHeavy ? "┥" : "┤", pen.style))
      overlays.append((Point(x: head, y: row), String(pen.heads.left), pen.style))
      overlays.append((Point(x: head + 2, y: row), " \(caption(node)) ", pen.style))
    }
  }

  /// The closing edge: out of the last box's bottom, left under the row, up the
  /// channel on the left, into the first box's left side.
  private mutating func drawClosing(from last: Int, to first: Int, labelWidth: Int) {
    let e = outline.extras[0]
    let pen = EdgePen.pen(for: graph.edges[e])
    let source = boxes[last]
    let exit = Point(x: source.origin.x + 2, y: source.rect.maxY - 1)
    let below = height
    let entry = boxes[first].interiorRow(0)
    let head = Point(x: boxes[first].origin.x - 1, y: entry)
    canvas.path(
      [exit, Point(x: exit.x, y: below), Point(x: 0, y: below), Point(x: 0, y: entry), head], pen: pen)
    overlays.append((exit, pen.isHeavy ? "┰" : "┬", pen.style))
    overlays.append((head, String(pen.heads.right), pen.style))
    let caption = graph.edges[e].caption.truncated(toWidth: labelWidth)
    overlays.append((Point(x: exit.x + 1, y: below), " \(caption)", pen.style))
    width = max(width, exit.x + 2 + caption.displayWidth)
    height = below + 1
  }

  /// The size of the drawing, known before it is drawn.
  var size: Size { Size(width: max(width, canvas.extent.width), height: max(height, canvas.extent.height)) }

  /// The drawing, sized to fit everything.
  var grid: Grid {
    var grid = Grid(size: size)
    canvas.render(on: &grid)
    for node in outline.chain { boxes[node].draw(on: &grid) }
    for overlay in overlays { grid.put(overlay.text, at: overlay.point, style: overlay.style) }
    return grid
  }
}
