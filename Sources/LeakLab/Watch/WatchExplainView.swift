import GraphLayout
import HeapModel
import RetainGraph
import TextGrid

/// `leaklab watch`'s explain view (Enter): why one instance is alive — the
/// path from a true root or the retain cycle, drawn as the catalogue app's
/// explain view draws a retain graph, with the retain-count account and the
/// path in one line (what `y` copies). It scrolls like every pane.
///
/// ```
/// ┌─ Why is it alive? ───────────────────────────────────────────┐
/// │ Session: the newest of 3 new since the mark (13 live)        │
/// │ held from root: global sessionLog in WatchedServer           │
/// │ 1 of 1 strong reference found                                │
/// │ ┌──── root ────────────────────────────┐                     │
/// │ │ global sessionLog in WatchedServer   │                     │
/// │ …                                                            │
/// ```
enum WatchExplainView {
  static func draw(_ state: WatchState, in area: Rect, on grid: inout Grid) {
    guard let explanation = state.explanation else { return }
    let frame = ExplainView.frame(
      for: { width, room in Self.content(explanation, width: width, room: room).height }, in: area)
    grid.fill(frame.box.width >= area.width - 4 ? area : frame.box.inset(by: -1).intersection(area))
    grid.drawBox(frame.box, title: "Why is it alive?", style: .title, titleStyle: .title)
    let shown = content(explanation, width: frame.viewport.width, room: frame.viewport.height)
    ScrollView.draw(shown, in: frame.viewport, box: frame.box, at: state.explainScroll, on: &grid)
    let keys =
      explanation.why == nil
      ? "Esc closes" : "↑↓ PgUp PgDn scroll · y copies the path · Esc closes"
    grid.put(keys, at: frame.footer.origin, style: .muted, maxWidth: frame.footer.width)
  }

  /// The title, the kind of answer, the account, the drawing and the path as text.
  static func content(_ explanation: WatchState.Explanation, width: Int, room: Int) -> Grid {
    var lines: [(String, Style)] = [(explanation.title, .title)]
    guard let why = explanation.why else {
      lines.append((explanation.failure ?? "Reading the process (it is stopped meanwhile)…", .muted))
      return Grid(lines: ExplainView.wrapped(lines, width: width))
    }
    switch why.shape {
    case .rootPath: lines.append(("held from root: \(why.root ?? "a root")", .plain))
    case .cycle:
      lines.append(("retain cycle: nothing reachable holds it; its members keep each other alive", .alert))
    }
    if let accounting = why.accounting { lines.append((accounting, .muted)) }
    var header = ExplainView.wrapped(lines, width: width)
    if let site = explanation.site {
      // A path wider than the view breaks after a `/`: the line number must show.
      header += TextWrapping.words(site.summary, width: width, cutsLongWords: false).map { ($0, .plain) }
    }
    header.append(("", .plain))
    let headerGrid = Grid(lines: header)
    let drawing = graph(of: why).draw(fitting: Size(width: width, height: max(10, room - headerGrid.height)))
    let text = Grid(lines: [("", .plain)] + ExplainView.wrapped([(why.text, .muted)], width: width))
    var grid = Grid(
      size: Size(
        width: max(width, drawing.size.width), height: headerGrid.height + drawing.size.height + text.height))
    grid.draw(headerGrid, at: .zero)
    grid.draw(drawing, at: Point(x: 0, y: headerGrid.height))
    grid.draw(text, at: Point(x: 0, y: headerGrid.height + drawing.size.height))
    return grid
  }

  /// The path or cycle as a graph to draw: the root a node of its own, each
  /// block a node, each reference an edge (a cycle's last leads back).
  static func graph(of why: HeapModel.WhyAlive) -> ReferenceGraph {
    var graph = ReferenceGraph()
    func kind(_ title: String) -> ReferenceGraph.Node.Kind {
      title == "closure" ? .closure : title.hasSuffix(" storage") ? .collection : .object
    }
    if let root = why.root {
      graph.addNode(.init(id: "root", title: root, kind: .other, isRoot: true))
    }
    for (index, title) in why.nodes.enumerated() {
      graph.addNode(
        .init(
          id: "n\(index)", title: title, kind: kind(title),
          isLeaked: why.shape == .cycle))
    }
    if why.root != nil, !why.nodes.isEmpty { graph.addEdge(.init(from: "root", to: "n0", label: "holds")) }
    let first = graph.edges.count
    for (index, label) in why.labels.enumerated() {
      let next = index + 1 < why.nodes.count ? index + 1 : 0
      graph.addEdge(.init(from: "n\(index)", to: "n\(next)", label: label))
    }
    if why.shape == .cycle {
      // The reference to break, read as every other view reads a cycle.
      for suspect in TraceReading(cycle: retainPath(of: why)).suspects {
        graph.setCulprit(true, edgeAt: first + suspect)
      }
    }
    return graph
  }

  /// The cycle as a retain path: its first block, then each reference to the next.
  static func retainPath(of why: HeapModel.WhyAlive) -> RetainPath {
    let objects = why.nodes.enumerated().map { ObjectInfo(address: UInt($0 + 1), typeName: $1) }
    return RetainPath(
      start: objects.first ?? ObjectInfo(address: 0, typeName: ""),
      steps: why.labels.indices.map { index in
        Reference(
          label: why.labels[index], strength: .strong, target: objects[(index + 1) % max(objects.count, 1)])
      })
  }
}
