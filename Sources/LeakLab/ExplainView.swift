import LeakDetector
import TextGrid

/// The explain view (`e`): one leaked instance at a time (Tab for the
/// others) with its status, when it was closed and detected, its whole
/// retain path, one reference a line, and what is alive inside it.
///
/// The content scrolls (↑↓, PgUp/PgDn, g/G, ←→ when wider) under a fixed
/// heading and above a fixed line of keys; the bottom border says how much is
/// cut off. ``content(_:width:)`` is a ``TextGrid/Grid``, so a picture of the
/// retain graph can join the text.
///
/// ```
/// ┌─ Why is it alive? ──────────────────────────────┐
/// │ 1 of 1: ClosureScreen#1                         │
/// │ open  alive 4 s · closed at 2.0 s, detected 3.0 │
/// │                                                 │
/// │ retain cycle: ClosureScreen#1                   │
/// │   → onLoad: closure in ClosureScreen.load()     │
/// │   → captures ClosureScreen#1 (strong)           │
/// │                                                 │
/// │ Esc or e closes                                 │
/// └─────────────────────────────────────────────────┘
/// ```
enum ExplainView {
  /// Where the view's parts go in `area` (the screen above the status bar).
  struct Frame {
    var box: Rect
    var heading: Rect
    var viewport: Rect
    var footer: Rect
  }

  static func frame(_ state: AppState, in area: Rect) -> Frame {
    let width = min(area.width - 2, 100)
    let textWidth = max(1, width - 4)
    let heading = headingLines(state, width: textWidth)
    let contentHeight = Self.content(state, width: textWidth).height
    let height = min(area.height, heading.count + contentHeight + 2 + 2)
    let box = area.centered(Size(width: width, height: height))
    let inner = box.inset(by: 1).inset(left: 1, right: 1)
    let (headingRect, rest) = inner.divided(atDistance: min(inner.height, heading.count), from: .top)
    let (footer, viewport) = rest.divided(atDistance: min(rest.height, 1), from: .bottom)
    // A blank row between the content and the keys, when there is room.
    let content = viewport.height > 2 ? viewport.inset(bottom: 1) : viewport
    return Frame(box: box, heading: headingRect, viewport: content, footer: footer)
  }

  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let frame = frame(state, in: area)
    grid.fill(frame.box.width >= area.width - 4 ? area : frame.box.inset(by: -1).intersection(area))
    grid.drawBox(frame.box, title: "Why is it alive?", style: .title, titleStyle: .title)
    grid.putLines(headingLines(state, width: frame.heading.width), in: frame.heading)
    let content = Self.content(state, width: frame.viewport.width)
    ScrollView.draw(content, in: frame.viewport, box: frame.box, at: state.explainScroll, on: &grid)
    grid.putLines([(footer(state), .muted)], in: frame.footer)
  }

  /// The keys line: `Tab other leak · ↑↓ PgUp PgDn scroll · Esc or e closes`.
  static func footer(_ state: AppState) -> String {
    var parts: [String] = []
    if state.report.leaks.count > 1, !state.isSelectionAnotherScenario { parts.append("Tab other leak") }
    parts.append("↑↓ PgUp PgDn scroll")
    parts.append("y copies the path")
    parts.append("Esc or e closes")
    return parts.joined(separator: " · ")
  }

  /// The fixed lines above the content: which leak, its status and times.
  static func headingLines(_ state: AppState, width: Int) -> [(String, Style)] {
    let report = state.report
    if state.isSelectionAnotherScenario, let selected = state.selectedEntry {
      return wrapped([("\(selected.title) has not run yet.", .title)], width: width)
    }
    guard let index = state.explainedLeakIndex, report.leaks.indices.contains(index) else {
      let run = state.lastRunEntry.map { " (\($0.title))" } ?? ""
      return wrapped([("Nothing has leaked in this run\(run).", .title)], width: width)
    }
    let leak = report.leaks[index]
    return wrapped(
      [
        ("\(index + 1) of \(report.leaks.count): \(leak.name)", .title),
        (
          OverlayView.status(of: leak, at: report.time) + " · closed at \(TimeFormat.tenths(leak.expectedAt))"
            + ", detected at \(TimeFormat.tenths(leak.detectedAt))", leak.isOpen ? .alert : .success
        ),
      ], width: width)
  }

  /// What scrolls: the whole retain path and what is alive inside the leak.
  static func content(_ state: AppState, width: Int) -> Grid {
    let report = state.report
    if state.isSelectionAnotherScenario, let run = state.lastRunEntry {
      return Grid(
        lines: wrapped(
          [
            ("", .plain),
            ("Enter opens it; close it (Esc) and its leaks can be explained here.", .plain),
            ("The overlay still shows the last run: \(run.title). Select it to explain that run.", .muted),
          ], width: width))
    }
    guard let index = state.explainedLeakIndex, report.leaks.indices.contains(index) else {
      return Grid(
        lines: wrapped(
          [("", .plain), ("Open a scenario in strong form, tap its actions and close it (Esc).", .plain)],
          width: width))
    }
    let leak = report.leaks[index]
    var lines: [(String, Style)] = [("", .plain)]
    if let path = leak.retainPath {
      if !leak.isOpen { lines.append(("When it was detected:", .muted)) }
      lines += RetainPathLines.wrap(path, width: width, firstPrefix: "", stepPrefix: "  → ")
        .map { ($0, leak.isOpen ? .plain : .muted) }
    } else {
      lines.append(("No retain path was found for it.", .muted))
    }
    if !leak.folded.isEmpty {
      lines.append(("", .plain))
      lines += TextWrapping.list(
        "Also alive inside it: " + leak.folded.joined(separator: ", "), separator: ", ", width: width
      ).map { ($0, .muted) }
    }
    return Grid(lines: lines)
  }

  /// Each line word-wrapped to `width`; blank lines kept.
  private static func wrapped(_ lines: [(String, Style)], width: Int) -> [(String, Style)] {
    lines.flatMap { line in
      line.0.displayWidth <= width ? [line] : TextWrapping.words(line.0, width: width).map { ($0, line.1) }
    }
  }
}
