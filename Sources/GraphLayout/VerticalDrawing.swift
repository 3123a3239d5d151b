import TextGrid

/// The vertical layout: boxes stacked down the spine, side branches hung off
/// a trunk to the right, and every edge that closes a cycle routed back up
/// through a channel on the right. It reads at 80 columns and works for any
/// graph (it may be taller than the screen: the caller scrolls).
///
/// ```
/// ┌────────── leaked ─┐
/// │ AlertController#1 │◀━━━━━━━━━━━━━━━━━━━━━━━━━┓
/// └─┬─────────────────┘                          ┃
///   │ actions[1] (strong)                        ┃
/// ┌─▼─────────────┐                              ┃
/// │ AlertAction#1 │                              ┃
/// └─┬─────────────┘                              ┃
///   │ handler (strong)                           ┃
/// ╭─▼──────────────────────────────────────────╮ ┃
/// │ closure                                    │ ┃
/// │ in DraftsScreen.confirmDelete()            │ ┃
/// │ captures DraftsScreen#1, AlertController#1 │ ┃
/// ╰─┰──────────────────────────────────────────╯ ┃
///   ┃ captures[1] (strong)                       ┃
///   ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛
/// ```
struct VerticalDrawing {
  private let outline: GraphOutline
  private let graph: ReferenceGraph
  private let labelWidth: Int
  private var boxes: [NodeBox] = []
  /// Per row: the first column to the right of everything drawn on it.
  private var extent: [Int] = []
  private var canvas = LineCanvas()
  private var overlays: [(point: Point, text: String, style: Style)] = []
  /// Extra edges that leave their (leaf) source from the bottom, by edge.
  private var tails: [Int: Tail] = [:]
  /// Per node: the ends of extra edges attached to its right side, top to bottom.
  private var sideSlots: [[Slot]]
  private var channels: [(x: Int, top: Int, bottom: Int)] = []

  /// One end of an extra edge on a box's right side.
  private struct Slot: Hashable {
    var edge: Int
    var isEntry: Bool
  }

  private struct Tail {
    var labelRows: Range<Int> = 0..<0
    var turnRow = 0
  }

  /// Lays `outline` out with boxes at most `boxWidth` wide and labels wrapped at `labelWidth`.
  init(_ outline: GraphOutline, boxWidth: Int, labelWidth: Int) {
    self.outline = outline
    self.graph = outline.graph
    self.labelWidth = max(8, labelWidth)
    sideSlots = Array(repeating: [], count: graph.nodes.count)
    var hasTail = Set<Int>()
    for e in outline.extras {
      let source = outline.source(of: e)
      if outline.children[source].isEmpty, hasTail.insert(source).inserted {
        tails[e] = Tail()
      } else {
        sideSlots[source].append(Slot(edge: e, isEntry: false))
      }
      sideSlots[outline.target(of: e)].append(Slot(edge: e, isEntry: true))
    }
    boxes = graph.nodes.indices.map { node in
      NodeBox(graph.nodes[node], maxWidth: boxWidth, minInteriorRows: sideSlots[node].count)
    }
    var row = 0
    for start in outline.starts {
      if row > 0 { row += 1 }
      row = place(start, at: Point(x: 0, y: row))
    }
    orderSideSlots()
    routeExtras()
  }

  // MARK: Placing the boxes

  /// Places `node` and its subtree with the box's top-left at `point`; returns the next free row.
  private mutating func place(_ node: Int, at point: Point) -> Int {
    boxes[node].origin = point
    let box = boxes[node]
    occupy(rows: box.rect.minY..<box.rect.maxY, to: box.rect.maxX)
    var row = box.rect.maxY
    let trunkX = point.x + 2
    if let e = tails.first(where: { outline.source(of: $0.key) == node })?.key {
      let lines = Wrapping.lines(graph.edges[e].caption, width: labelWidth)
      tails[e]!.labelRows = row..<(row + lines.count)
      for (i, line) in lines.enumerated() {
        overlays.append((Point(x: trunkX + 2, y: row + i), line, EdgePen.pen(for: graph.edges[e]).style))
        occupy(rows: (row + i)..<(row + i + 1), to: trunkX + 2 + line.displayWidth)
      }
      row += lines.count
      tails[e]!.turnRow = row
      occupy(rows: row..<(row + 1), to: trunkX + 1)
      row += 1
    }
    guard let spine = outline.spine(of: node) else { return row }
    let branches = outline.branches(of: node)
    let captions = branches.map { graph.edges[$0].caption.truncated(toWidth: labelWidth) }
    let branchX = trunkX + (captions.map(\.displayWidth).max() ?? 0) + 6
    var lastConnector: Int?
    for (e, caption) in zip(branches, captions) {
      let top = row
      row = place(outline.target(of: e), at: Point(x: branchX, y: top))
      let connector = boxes[outline.target(of: e)].interiorRow(0)
      let pen = EdgePen.pen(for: graph.edges[e])
      canvas.line(from: Point(x: trunkX, y: connector), to: Point(x: branchX - 2, y: connector), pen: pen)
      overlays.append((Point(x: trunkX + 2, y: connector), " \(caption) ", pen.style))
      overlays.append((Point(x: branchX - 1, y: connector), String(pen.heads.right), pen.style))
      lastConnector = connector
    }
    let pen = EdgePen.pen(for: graph.edges[spine])
    let lines = Wrapping.lines(graph.edges[spine].caption, width: labelWidth)
    for (i, line) in lines.enumerated() {
      overlays.append((Point(x: trunkX + 2, y: row + i), line, pen.style))
      occupy(rows: (row + i)..<(row + i + 1), to: trunkX + 2 + line.displayWidth)
    }
    let childTop = row + max(1, lines.count)
    if let lastConnector {
      canvas.line(from: box.trunk, to: Point(x: trunkX, y: lastConnector), pen: .shared)
    }
    canvas.line(
      from: Point(x: trunkX, y: lastConnector ?? box.trunk.y), to: Point(x: trunkX, y: childTop), pen: pen)
    let startPen = lastConnector == nil ? pen : .shared
    overlays.append((box.trunk, startPen.isHeavy ? "┰" : "┬", startPen.style))
    overlays.append((Point(x: trunkX, y: childTop), String(pen.heads.down), pen.style))
    return place(outline.target(of: spine), at: Point(x: point.x, y: childTop))
  }

  /// Records that `rows` are used up to column `x` (exclusive).
  private mutating func occupy(rows: Range<Int>, to x: Int) {
    if extent.count < rows.upperBound { extent += Array(repeating: 0, count: rows.upperBound - extent.count) }
    for row in rows { extent[row] = max(extent[row], x) }
  }

  // MARK: Routing the edges that close cycles

  /// The row where an end of an extra edge attaches to `node`'s right side.
  private func sideRow(of edge: Int, on node: Int, isEntry: Bool) -> Int {
    let index = sideSlots[node].firstIndex(of: Slot(edge: edge, isEntry: isEntry)) ?? 0
    return boxes[node].interiorRow(index)
  }

  /// The row an extra edge comes in on.
  private func entryRow(of edge: Int) -> Int {
    sideRow(of: edge, on: outline.target(of: edge), isEntry: true)
  }

  /// Where an extra edge leaves its source: its side row, or a tail's turn row.
  private func exitRow(of edge: Int) -> Int {
    tails[edge]?.turnRow ?? sideRow(of: edge, on: outline.source(of: edge), isEntry: false)
  }

  /// A rough span for ordering slots: the distance between the boxes.
  private func boxSpan(_ edge: Int) -> Int {
    abs(boxes[outline.source(of: edge)].origin.y - boxes[outline.target(of: edge)].origin.y)
  }

  /// Orders each node's side slots so channels cross as little as possible:
  /// edges coming in on top, the longest first; self-loops; edges going out
  /// below, the shortest first.
  private mutating func orderSideSlots() {
    let outline = self.outline
    let isLoop = { (slot: Slot) in outline.source(of: slot.edge) == outline.target(of: slot.edge) }
    for node in sideSlots.indices {
      let incoming = sideSlots[node].filter { $0.isEntry && !isLoop($0) }
      let loops = sideSlots[node].filter(isLoop).sorted { $0.isEntry && !$1.isEntry }
      let outgoing = sideSlots[node].filter { !$0.isEntry && !isLoop($0) }
      sideSlots[node] =
        incoming.sorted { boxSpan($0.edge) > boxSpan($1.edge) } + loops
        + outgoing.sorted { boxSpan($0.edge) < boxSpan($1.edge) }
    }
  }

  private mutating func routeExtras() {
    let spans = outline.extras.map { e -> (edge: Int, top: Int, bottom: Int) in
      let entry = entryRow(of: e)
      let exit = exitRow(of: e)
      return (e, min(entry, exit), max(entry, exit))
    }
    for span in spans.sorted(by: { $0.bottom - $0.top < $1.bottom - $1.top }) {
      route(span.edge, top: span.top, bottom: span.bottom)
    }
  }

  private mutating func route(_ e: Int, top: Int, bottom: Int) {
    let edge = graph.edges[e]
    let pen = EdgePen.pen(for: edge)
    let source = boxes[outline.source(of: e)]
    let target = boxes[outline.target(of: e)]
    let entryRow = entryRow(of: e)
    occupy(rows: entryRow..<(entryRow + 1), to: target.rect.maxX + 1)
    var x = (top...bottom).map { extent[$0] }.max()! + 1
    for channel in channels where channel.top <= bottom && channel.bottom >= top { x = max(x, channel.x + 2) }
    let exit: Point
    if let tail = tails[e] {
      exit = Point(x: source.trunk.x, y: tail.turnRow)
      canvas.line(from: source.trunk, to: exit, pen: pen)
      overlays.append((source.trunk, pen.isHeavy ? "┰" : "┬", pen.style))
    } else {
      let row = exitRow(of: e)
      let crossed = channels.filter { $0.top <= row && $0.bottom >= row && $0.x >= source.rect.maxX }.map(\.x)
      let caption = edge.caption.truncated(toWidth: labelWidth)
      let labelX = max(source.rect.maxX + 1, (crossed.max() ?? 0) + 1)
      x = max(x, labelX + caption.displayWidth + 3)
      exit = Point(x: source.rect.maxX - 1, y: row)
      overlays.append((Point(x: source.rect.maxX - 1, y: row), pen.isHeavy ? "┝" : "├", pen.style))
      overlays.append((Point(x: labelX, y: row), " \(caption) ", pen.style))
    }
    canvas.path(
      [exit, Point(x: x, y: exit.y), Point(x: x, y: entryRow), Point(x: target.rect.maxX, y: entryRow)],
      pen: pen)
    overlays.append((Point(x: target.rect.maxX, y: entryRow), String(pen.heads.left), pen.style))
    channels.append((x, top, bottom))
  }

  // MARK: Output

  /// The size of the drawing, known before it is drawn.
  var size: Size {
    Size(
      width: max(extent.max() ?? 0, canvas.extent.width, (channels.map(\.x).max() ?? -1) + 1),
      height: max(extent.count, canvas.extent.height))
  }

  /// The drawing, sized to fit everything.
  var grid: Grid {
    var grid = Grid(size: size)
    canvas.render(on: &grid)
    for box in boxes { box.draw(on: &grid) }
    for overlay in overlays { grid.put(overlay.text, at: overlay.point, style: overlay.style) }
    return grid
  }
}
