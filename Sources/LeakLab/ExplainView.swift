import GraphLayout
import LeakDetector
import TextGrid

/// The explain view (`e`): one leaked instance at a time (Tab for the
/// others) with its status, its retain graph drawn as boxes and arrows — the
/// culprit edge heavy and red — and the catalogue's fix beside it (above it
/// below 100 columns); ``ExplainContent`` lays it out.
///
/// It scrolls (↑↓, PgUp/PgDn, g/G, and ←→ when wider than the box) on the
/// same ``ScrollView`` as every pane: the box's bottom border says how much is
/// cut off, and the last line inside the box lists the keys.
///
/// ```
/// ┌─ Why is it alive? ───────────────────────────────────────────────────────────┐
/// │ 1 of 1: CheckoutScreen#1                                                     │
/// │ open  alive 1 s · closed at 0.0 s, detected at 1.0 s                         │
/// │                                                                              │
/// │ Fix: Declare the delegate `weak var delegate: (any PaymentFormDelegate)?`.   │
/// │                                                                              │
/// │ ┌───────── leaked ─┐                                                         │
/// │ │ CheckoutScreen#1 │◀━━━━━━━━━━━┓                                            │
/// │ └─┬────────────────┘            ┃                                            │
/// │   │ rootView (strong)           ┃                                            │
/// │ ┌─▼──────┐                      ┃                                            │
/// │ │ View#1 │                      ┃                                            │
/// │ └─┬──────┘                      ┃                                            │
/// │   │ subviews[1] (strong)        ┃                                            │
/// │ ┌─▼───────────────────────────┐ ┃                                            │
/// │ │ StrongDelegatePaymentForm#1 │ ┃                                            │
/// │ └─┰───────────────────────────┘ ┃                                            │
/// │   ┃ delegate (strong)           ┃                                            │
/// │   ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛                                            │
/// │                                                                              │
/// │ ↑↓ PgUp PgDn scroll · y copies the path · Esc or e closes                    │
/// └───────────────────────────────────────────────────────────── ↓ 3 more ───────┘
/// ```
enum ExplainView {
  /// Where the view's parts go in `area` (the screen above the status bar).
  struct Frame {
    var box: Rect
    var viewport: Rect
    var footer: Rect
  }

  /// The box fills `area` when its content needs the room, else it is as tall as the content.
  static func frame(_ state: AppState, in area: Rect) -> Frame {
    frame(for: { width, room in content(state, width: width, room: room).height }, in: area)
  }

  /// The frame of a view whose content is `contentHeight(width, room)` rows tall.
  static func frame(for contentHeight: (_ width: Int, _ room: Int) -> Int, in area: Rect) -> Frame {
    let width = min(area.width, 200)
    let height = contentHeight(max(1, width - 4), max(1, area.height - 4))
    let box = area.centered(Size(width: width, height: min(area.height, height + 4)))
    let inner = box.inset(by: 1).inset(left: 1, right: 1)
    let (footer, rest) = inner.divided(atDistance: min(1, inner.height), from: .bottom)
    // A blank row between the content and the keys, when there is room.
    let viewport = rest.height > 2 ? rest.inset(bottom: 1) : rest
    return Frame(box: box, viewport: viewport, footer: footer)
  }

  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let frame = frame(state, in: area)
    grid.fill(frame.box.width >= area.width - 4 ? area : frame.box.inset(by: -1).intersection(area))
    grid.drawBox(frame.box, title: "Why is it alive?", style: .title, titleStyle: .title)
    let content = content(state, width: frame.viewport.width, room: frame.viewport.height)
    ScrollView.draw(content, in: frame.viewport, box: frame.box, at: state.explainScroll, on: &grid)
    grid.put(footer(state), at: frame.footer.origin, style: .muted, maxWidth: frame.footer.width)
  }

  /// The keys line: `Tab other leak · ↑↓ PgUp PgDn scroll · y copies the path · Esc or e closes`.
  static func footer(_ state: AppState) -> String {
    var parts: [String] = []
    if state.report.leaks.count > 1, !state.explainsUnrunSelection { parts.append("Tab other leak") }
    parts.append("↑↓ PgUp PgDn scroll")
    if state.explainedLeakIndex.map(state.report.leaks.indices.contains) == true {
      parts.append("y copies the path")
    }
    parts.append("Esc or e closes")
    return parts.joined(separator: " · ")
  }

  /// Everything the view shows at `width` columns; `room` is the height on
  /// screen, which decides whether a cycle can be drawn in one row.
  static func content(_ state: AppState, width: Int, room: Int) -> Grid {
    let report = state.report
    if state.explainsUnrunSelection, let selected = state.selectedEntry, let run = state.lastRunEntry {
      return Grid(
        lines: wrapped(
          [
            ("\(selected.title) has not run yet.", .title),
            ("Enter opens it; close it (Esc) and its leaks can be explained here.", .plain),
            ("The overlay still shows the last run: \(run.title). Select it to explain that run.", .muted),
          ], width: width))
    }
    guard let index = state.explainedLeakIndex, report.leaks.indices.contains(index) else {
      return FreedContent(state: state).grid(width: width, height: room)
    }
    var leak = report.leaks[index]
    let entry = state.lastRunEntry
    var graph = state.retainGraphs[leak.name]
    if !state.showsMemoryDetails {
      graph = graph.map(MemoryDetailFolding.fold)
      leak.retainPath = leak.retainPath.map(MemoryDetailFolding.fold)
    }
    return ExplainContent(
      leak: leak, number: index + 1, count: report.leaks.count, now: report.time, graph: graph,
      fix: entry?.fix,
      whyItLeaks: entry?.whyItLeaks, inARealApp: entry?.inARealApp
    ).grid(width: width, height: room)
  }

  /// Each line word-wrapped to `width`; lines that fit stay as they are.
  static func wrapped(_ lines: [(String, Style)], width: Int) -> [(String, Style)] {
    lines.flatMap { line in
      line.0.displayWidth <= width ? [line] : TextWrapping.words(line.0, width: width).map { ($0, line.1) }
    }
  }
}
