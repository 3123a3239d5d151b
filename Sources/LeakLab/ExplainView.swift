import LeakDetector
import TextGrid

/// The explain view (`e`): one leaked instance at a time (↑/↓ for the
/// others) with its status, when it was closed and detected, what is alive
/// inside it, and its whole retain path, one reference a line.
///
/// ```
/// ┌─ Why is it alive? ─────────────────────────────┐
/// │1 of 1: ClosureScreen#1                          │
/// │open  alive 4 s · closed at 2.0 s, detected 3.0 s│
/// │                                                 │
/// │retain cycle: ClosureScreen#1                    │
/// │  → onLoad: closure in ClosureScreen.load()      │
/// │  → captures ClosureScreen#1 (strong)            │
/// ```
enum ExplainView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let width = min(area.width - 2, 100)
    let textWidth = max(1, width - 4)
    let lines = content(state, width: textWidth)
    let box = area.centered(Size(width: width, height: min(area.height, lines.count + 2)))
    grid.fill(box.width >= area.width - 4 ? area : box.inset(by: -1).intersection(area))
    let inner = grid.drawBox(box, title: "Why is it alive?", style: .title, titleStyle: .title)
      .inset(left: 1, right: 1)
    var shown = lines
    if shown.count > inner.height, inner.height > 0 {
      shown = Array(shown.prefix(inner.height - 1)) + [lines[lines.count - 1]]
    }
    grid.putLines(shown.map { ($0.0.truncated(toWidth: inner.width), $0.1) }, in: inner)
  }

  private static func content(_ state: AppState, width: Int) -> [(String, Style)] {
    let report = state.report
    let footer = (report.leaks.count > 1 ? "↑↓ other leak · Esc or e closes" : "Esc or e closes", Style.muted)
    if state.isSelectionAnotherScenario, let selected = state.selectedEntry, let run = state.lastRunEntry {
      return wrapped(
        [
          ("\(selected.title) has not run yet.", .title),
          ("Enter opens it; close it (Esc) and its leaks can be explained here.", .plain),
          ("The overlay still shows the last run: \(run.title). Select it to explain that run.", .muted),
          ("", .plain), footer,
        ], width: width)
    }
    guard let index = state.explainedLeakIndex, report.leaks.indices.contains(index) else {
      let run = state.lastRunEntry.map { " (\($0.title))" } ?? ""
      return wrapped(
        [
          ("Nothing has leaked in this run\(run).", .title),
          ("Open a scenario in strong form, tap its actions and close it (Esc).", .plain),
          ("", .plain), footer,
        ], width: width)
    }
    let leak = report.leaks[index]
    var lines: [(String, Style)] = [
      ("\(index + 1) of \(report.leaks.count): \(leak.name)", .title),
      (
        OverlayView.status(of: leak, at: report.time) + " · closed at \(TimeFormat.tenths(leak.expectedAt))"
          + ", detected at \(TimeFormat.tenths(leak.detectedAt))", leak.isOpen ? .alert : .success
      ),
      ("", .plain),
    ]
    if let path = leak.retainPath {
      let steps = path.split(separator: " → ", omittingEmptySubsequences: false).map(String.init)
      for (number, step) in steps.enumerated() {
        let prefix = number == 0 ? "" : "  → "
        let wrapped = TextWrapping.words(step, width: max(1, width - prefix.count))
        for (part, text) in wrapped.enumerated() {
          let lead = part == 0 ? prefix : String(repeating: " ", count: prefix.count + 2)
          lines.append((lead + text, .plain))
        }
      }
    } else {
      lines.append(("No retain path was found for it.", .muted))
    }
    if !leak.folded.isEmpty {
      lines.append(("", .plain))
      lines += TextWrapping.list(
        "Also alive inside it: " + leak.folded.joined(separator: ", "), separator: ", ", width: width
      ).map { ($0, .muted) }
    }
    lines.append(("", .plain))
    lines.append(footer)
    return lines
  }

  /// Each line word-wrapped to `width`; blank lines kept.
  private static func wrapped(_ lines: [(String, Style)], width: Int) -> [(String, Style)] {
    lines.flatMap { line in
      line.0.isEmpty ? [line] : TextWrapping.words(line.0, width: width).map { ($0, line.1) }
    }
  }
}
