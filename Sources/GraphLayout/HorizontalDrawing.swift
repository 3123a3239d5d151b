import TextGrid

/// The wide layout for a chain (a cycle, or a root path ending in one): the
/// boxes in one row, left to right, and every edge that closes a cycle
/// routed back underneath. Used when it fits; else ``VerticalDrawing``.
///
/// ```
/// ┌────────── leaked ─┐                   ┌─────────────────┐
/// │ StopwatchScreen#1 ├─ timer (strong) ─▶│ RepeatingWork#1 │
/// └─▲─────────────────┘                   └───────────────┰─┘
///   ┗━ work: closure in StopwatchScreen.start() (strong) ━┛
/// ```
struct HorizontalDrawing {
  private let outline: GraphOutline
  private let graph: ReferenceGraph
  private var boxes: [NodeBox]
  private var canvas = LineCanvas()
  private var overlays: [(point: Point, text: String, style: Style)] = []
  private var width = 0
  private var height = 0

  /// Lays out `outline`, which must be a chain (``GraphOutline/isChain``).
  init(_ outline: GraphOutline, boxWidth: Int, labelWidth: Int) {
    self.outline = outline
    self.graph = outline.graph
    var slots = Array(repeating: 0, count: graph.nodes.count)
    for e in outline.extras {
      slots[outline.source(of: e)] += 1
      slots[outline.target(of: e)] += 1
    }
    let nodes = outline.graph.nodes
    boxes = nodes.indices.map { NodeBox(nodes[$0], maxWidth: boxWidth, minWidth: 2 * slots[$0] + 4) }
    var x = 0
    let chain = outline.chain
    for (i, node) in chain.enumerated() {
      boxes[node].origin = Point(x: x, y: 0)
      let box = boxes[node]
      width = max(width, box.rect.maxX)
      height = max(height, box.rect.maxY)
      guard i + 1 < chain.count, let e = outline.spine(of: node) else { break }
      let pen = EdgePen.pen(for: graph.edges[e])
      let caption = graph.edges[e].caption.truncated(toWidth: max(8, labelWidth))
      let row = box.interiorRow(0)
      let head = box.rect.maxX + caption.displayWidth + 4
      canvas.line(from: Point(x: box.rect.maxX - 1, y: row), to: Point(x: head, y: row), pen: pen)
      overlays.append((Point(x: box.rect.maxX - 1, y: row), pen.isHeavy ? "┝" : "├", pen.style))
      overlays.append((Point(x: box.rect.maxX + 1, y: row), " \(caption) ", pen.style))
      overlays.append((Point(x: head, y: row), String(pen.heads.right), pen.style))
      x = head + 1
    }
    routeExtras(labelWidth: max(8, labelWidth))
  }

  /// Routes each extra edge under the boxes: out of the source's bottom
  /// border, along its own row, up into the target's bottom border.
  private mutating func routeExtras(labelWidth: Int) {
    var entries = Array(repeating: 0, count: graph.nodes.count)
    var exits = Array(repeating: 0, count: graph.nodes.count)
    var legs: [(edge: Int, from: Int, to: Int)] = []
    for e in outline.extras {
      let source = boxes[outline.source(of: e)]
      let target = boxes[outline.target(of: e)]
      let from = source.rect.maxX - 3 - 2 * exits[outline.source(of: e)]
      let to = target.origin.x + 2 + 2 * entries[outline.target(of: e)]
      exits[outline.source(of: e)] += 1
      entries[outline.target(of: e)] += 1
      legs.append((e, from, to))
    }
    let base = height
    let ordered = legs.sorted { abs($0.from - $0.to) < abs($1.from - $1.to) }
    for (level, leg) in ordered.enumerated() {
      let row = base + level
      let edge = graph.edges[leg.edge]
      let pen = EdgePen.pen(for: edge)
      let source = boxes[outline.source(of: leg.edge)]
      let target = boxes[outline.target(of: leg.edge)]
      canvas.path(
        [
          Point(x: leg.from, y: source.rect.maxY - 1), Point(x: leg.from, y: row), Point(x: leg.to, y: row),
          Point(x: leg.to, y: target.rect.maxY - 1),
        ], pen: pen)
      overlays.append((Point(x: leg.from, y: source.rect.maxY - 1), pen.isHeavy ? "┰" : "┬", pen.style))
      overlays.append((Point(x: leg.to, y: target.rect.maxY - 1), String(pen.heads.up), pen.style))
      let caption = " \(edge.caption.truncated(toWidth: labelWidth)) "
      let (left, right) = (min(leg.from, leg.to), max(leg.from, leg.to))
      let crossing = ordered[(level + 1)...].flatMap { [$0.from, $0.to] }
      let inside = left + 2
      let fitsInside =
        inside + caption.displayWidth <= right - 1
        && !crossing.contains { $0 >= inside && $0 < inside + caption.displayWidth }
      let labelX = fitsInside ? inside : right + 2
      overlays.append((Point(x: labelX, y: row), caption, pen.style))
      width = max(width, labelX + caption.displayWidth, right + 1)
      height = row + 1
    }
  }

  /// The size of the drawing, known before it is drawn.
  var size: Size { Size(width: max(width, canvas.extent.width), height: max(height, canvas.extent.height)) }

  /// The drawing, sized to fit everything.
  var grid: Grid {
    var grid = Grid(size: size)
    canvas.render(on: &grid)
    for box in boxes where outline.chain.contains(where: { graph.nodes[$0].id == box.node.id }) {
      box.draw(on: &grid)
    }
    for overlay in overlays { grid.put(overlay.text, at: overlay.point, style: overlay.style) }
    return grid
  }
}
