import GraphLayout
import LeakDetector
import TextGrid

/// The explain view (`e`): one leaked instance at a time (↑/↓ for the
/// others) with its status and its retain graph drawn as boxes and arrows —
/// the culprit edge heavy and red — and the catalogue's fix beside it (above
/// it below 100 columns). PgUp/PgDn scroll it when it is taller than the screen.
///
/// ```
/// ┌─ Why is it alive? · rows 1–20 of 23 ─────────────────────────────────────────┐
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
/// │ │ strong  ┃ culprit: the reference to break                                  │
/// │ ↑↓ other leak · PgUp/PgDn scroll · Esc or e closes · ↓ more below            │
/// └──────────────────────────────────────────────────────────────────────────────┘
/// ```
enum ExplainView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    grid.fill(area)
    let content = self.content(state, for: area)
    let visible = visibleRows(inBody: area)
    let offset = max(0, min(state.explainScroll, content.height - visible))
    var title = "Why is it alive?"
    if content.height > visible {
      title += " · rows \(offset + 1)–\(min(content.height, offset + visible)) of \(content.height)"
    }
    let inner = grid.drawBox(area, title: title, style: .title, titleStyle: .title).inset(left: 1, right: 1)
    guard inner.height > 1 else { return }
    var window = Grid(size: Size(width: inner.width, height: visible))
    window.draw(content, at: Point(x: 0, y: -offset))
    grid.draw(window, at: inner.origin)
    var footer = "↑↓ other leak · Esc or e closes"
    if content.height > visible {
      footer = "↑↓ other leak · PgUp/PgDn scroll · Esc or e closes"
      if offset + visible < content.height { footer += " · ↓ more below" }
    }
    grid.put(
      footer.truncated(toWidth: inner.width), at: Point(x: inner.minX, y: inner.maxY - 1), style: .muted)
  }

  // MARK: Scrolling

  /// The content rows on screen for a terminal of `size`.
  static func visibleRows(in size: Size) -> Int {
    visibleRows(inBody: body(of: size))
  }

  /// Everything above the status bar, as ``AppLayout`` divides it.
  private static func body(of size: Size) -> Rect {
    Rect(size: size).divided(atDistance: 1, from: .bottom).remainder
  }

  private static func visibleRows(inBody body: Rect) -> Int {
    max(1, body.height - 3)  // the box's two borders and the footer
  }

  /// How far the explain view can scroll at the state's screen size.
  static func maxScroll(_ state: AppState) -> Int {
    let body = body(of: state.screenSize)
    return max(0, content(state, for: body).height - visibleRows(inBody: body))
  }

  // MARK: Content

  /// Everything the view shows for the explained leak, at the width inside the box.
  static func content(_ state: AppState, for area: Rect) -> Grid {
    let width = max(1, area.width - 4)
    let report = state.report
    guard let index = state.explainedLeakIndex, report.leaks.indices.contains(index) else {
      var grid = Grid(size: Size(width: width, height: 2))
      grid.put("Nothing has leaked in this run.", at: .zero, style: .title)
      grid.put(
        "Open a scenario in strong form, tap its actions and close it (Esc).", at: Point(x: 0, y: 1),
        maxWidth: width)
      return grid
    }
    let leak = report.leaks[index]
    let entry = state.runScenarioID.flatMap { id in state.catalogue.first { $0.id == id } }
    return ExplainContent(
      leak: leak, number: index + 1, count: report.leaks.count, now: report.time,
      graph: state.retainGraphs[leak.name], fix: entry?.fix, whyItLeaks: entry?.whyItLeaks
    ).grid(width: width, height: visibleRows(inBody: area))
  }
}
