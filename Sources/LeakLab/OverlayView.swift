import LeakDetector
import TextGrid

/// The detector overlay: a box titled ` Detector `.
///
/// The rendering contract (``OverlayReader`` reads it back from a screen):
/// 1. The box's top border holds the title ` Detector `.
/// 2. Its first inner lines are the summary label, exactly
///    `LeakDetector.summaryLabel`, wrapped only at `, ` (the comma ends the
///    line, the next line starts with the next item, no indentation).
/// 3. Then a rule of `─` across the inner width.
/// 4. Then each leaked instance in detection order: `name  open  alive N s`
///    or, dimmed, `name  resolved after N.N s`; below it `  ↳ ` and the retain
///    path, cut with `…` (the `e` key shows it whole); then exceeded budgets.
/// The box is not drawn when the overlay is hidden, or only-with-issues and clean.
enum OverlayView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let inner = grid.drawBox(area, title: "Detector", style: .muted, titleStyle: .title)
    guard inner.width > 0, inner.height > 0 else { return }
    let report = state.report
    var lines = labelLines(report, width: inner.width)
    lines.append((String(repeating: "─", count: inner.width), .muted))
    let details = detailLines(state, width: inner.width)
    let room = inner.height - lines.count
    if details.count > room, room > 0 {
      let hidden = details.count - room + 1
      lines += details.prefix(room - 1)
      lines.append(("… \(hidden) more lines: e shows every retain path", .muted))
    } else {
      lines += details
    }
    grid.putLines(lines.map { ($0.0.truncated(toWidth: inner.width), $0.1) }, in: inner)
  }

  /// How many inner rows the overlay needs to show everything.
  static func contentHeight(_ state: AppState, innerWidth: Int) -> Int {
    minimumContentHeight(state, innerWidth: innerWidth) + detailLines(state, width: innerWidth).count
  }

  /// The inner rows it needs at least: the label and the rule.
  static func minimumContentHeight(_ state: AppState, innerWidth: Int) -> Int {
    labelLines(state.report, width: innerWidth).count + 1
  }

  private static func labelLines(_ report: LeakReport, width: Int) -> [(String, Style)] {
    let style: Style = report.isClean ? .success : .alert
    return TextWrapping.list(report.summaryLabel, separator: ", ", width: width).map { ($0, style) }
  }

  private static func detailLines(_ state: AppState, width: Int) -> [(String, Style)] {
    let report = state.report
    guard !report.leaks.isEmpty || !report.budgetIssues.isEmpty else {
      return [("Nothing leaked in this run.", .muted)]
    }
    let nameWidth = report.leaks.map(\.name.count).max() ?? 0
    var lines: [(String, Style)] = []
    for leak in report.leaks {
      let style: Style = leak.isOpen ? .plain : .muted
      let folded = leak.folded.isEmpty ? "" : "  (+\(leak.folded.count) inside)"
      lines.append(
        (leak.name.padded(toWidth: nameWidth) + "  " + status(of: leak, at: report.time) + folded, style))
      if let path = leak.retainPath {
        lines.append(("  ↳ " + path, leak.isOpen ? .plain : .muted))
      }
    }
    for issue in report.budgetIssues {
      lines.append((issue.label + "  over budget", .warning))
    }
    return lines
  }

  /// `open  alive 4 s` or `resolved after 10.0 s`.
  static func status(of leak: LeakedInstance, at now: Duration) -> String {
    switch leak.status {
    case .open: "open  alive \(TimeFormat.wholeSeconds(leak.age(at: now)))"
    case .resolved(let after): "resolved after \(TimeFormat.tenths(after))"
    }
  }
}
