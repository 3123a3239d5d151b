import LeakDetector
import TextGrid

/// The detector overlay: a box titled ` Detector ` (then the run it describes).
///
/// The rendering contract (``ScreenLabelReader`` reads it back from a screen):
/// 1. The box's top border holds the title ` Detector `.
/// 2. Its first inner lines are the summary label, exactly
///    `LeakDetector.summaryLabel`, wrapped only at `, ` (the comma ends the
///    line, the next line starts with the next item, no indentation).
/// 3. Then a rule of `─` across the inner width.
/// 4. Then each leaked instance in detection order: `name  open  alive N s`
///    or, dimmed, `name  resolved after N.N s`; below it `  ↳ ` and the retain
///    path, wrapped at its arrows; then exceeded budgets. These details scroll
///    under the label, which stays put.
/// The box is not drawn when the overlay is hidden, or only-with-issues and clean.
enum OverlayView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let border: Style = state.focus == .detector ? .focused : .muted
    let inner = grid.drawBox(area, title: title(state), style: border, titleStyle: .title)
    guard inner.width > 0, inner.height > 0 else { return }
    var header = labelLines(state.report, width: inner.width)
    header.append((String(repeating: "─", count: inner.width), .muted))
    let used = grid.putLines(header.map { ($0.0.truncated(toWidth: inner.width), $0.1) }, in: inner)
    let viewport = inner.inset(top: used)
    guard viewport.height > 0 else { return }
    let details = detailContent(state, width: viewport.width)
    ScrollView.draw(
      Grid(lines: details.lines), in: viewport, box: area,
      at: position(state, details: details, viewport: viewport.size), on: &grid)
  }

  /// `Detector`, then the run it describes: `Detector · Closure capture (strong)`.
  static func title(_ state: AppState) -> String {
    guard let run = state.lastRun, let entry = state.lastRunEntry else { return "Detector" }
    return "Detector · \(entry.title) (\(run.mode.rawValue))"
  }

  /// How many inner rows the overlay needs to show everything.
  static func contentHeight(_ state: AppState, innerWidth: Int) -> Int {
    headerHeight(state, innerWidth: innerWidth) + detailContent(state, width: innerWidth).lines.count
  }

  /// The rows the label and the rule take: they are always shown.
  static func headerHeight(_ state: AppState, innerWidth: Int) -> Int {
    labelLines(state.report, width: innerWidth).count + 1
  }

  private static func labelLines(_ report: LeakReport, width: Int) -> [(String, Style)] {
    let style: Style = report.isClean ? .success : .alert
    return TextWrapping.list(report.summaryLabel, separator: ", ", width: width).map { ($0, style) }
  }

  /// The details below the rule and the rows each leak's block starts at.
  struct Details {
    var lines: [(String, Style)]
    var leakRows: [Range<Int>]
  }

  /// The user's scroll position, else one that shows the selected leak (when focused), else the top.
  static func position(_ state: AppState, details: Details, viewport: Size) -> ScrollPosition {
    if let stored = state.scroll[.detector] { return stored }
    guard state.focus == .detector, details.leakRows.indices.contains(state.selectedLeakIndex) else {
      return .top
    }
    let block = details.leakRows[state.selectedLeakIndex]
    let bottom = max(0, block.upperBound - viewport.height)
    return ScrollPosition(y: min(block.lowerBound, bottom))
  }

  static func detailContent(_ state: AppState, width: Int) -> Details {
    let report = state.report
    guard !report.leaks.isEmpty || !report.budgetIssues.isEmpty else {
      let style: Style = state.lastCheck?.allDeallocated == true ? .success : .muted
      var lines = TextWrapping.words(cleanStatus(state), width: width).map { ($0, style) }
      if let warning = cleanRunWarning(state) {
        lines += TextWrapping.words(warning, width: width).map { ($0, Style.warning) }
      }
      return Details(lines: lines + accumulation(state, width: width), leakRows: [])
    }
    let nameWidth = report.leaks.map(\.name.count).max() ?? 0
    var lines: [(String, Style)] = []
    var leakRows: [Range<Int>] = []
    for (index, leak) in report.leaks.enumerated() {
      let start = lines.count
      var style: Style = leak.isOpen ? .plain : .muted
      if state.focus == .detector, index == state.selectedLeakIndex { style = .selected }
      let folded = leak.folded.isEmpty ? "" : "  (+\(leak.folded.count) inside)"
      let heading = leak.name.padded(toWidth: nameWidth) + "  " + status(of: leak, at: report.time) + folded
      if heading.displayWidth <= width {
        lines.append((heading, style))
      } else {
        lines += TextWrapping.words(heading, width: width, restWidth: max(1, width - 2)).enumerated().map {
          ($0.offset == 0 ? $0.element : "  " + $0.element, style)
        }
      }
      if let path = leak.retainPath.map({ state.showsMemoryDetails ? $0 : MemoryDetailFolding.fold($0) }) {
        lines += RetainPathLines.wrap(path, width: width, firstPrefix: "  ↳ ", stepPrefix: "      → ")
          .map { ($0, leak.isOpen ? .plain : .muted) }
      }
      leakRows.append(start..<lines.count)
    }
    for issue in report.budgetIssues {
      lines.append((issue.label + "  over budget", .warning))
    }
    return Details(lines: lines + accumulation(state, width: width), leakRows: leakRows)
  }

  /// What a clean run should not be read as: a leaky form whose marked line
  /// never ran, or one whose mistake no detector sees.
  static func cleanRunWarning(_ state: AppState) -> String? {
    if let hint = state.markedLineHint { return "Clean because the leaky line never ran: \(hint)." }
    guard state.lastCheck != nil, state.openScenario == nil, state.lastRun?.mode == .strong,
      let blindSpot = state.lastRunEntry?.detectorBlindSpot
    else { return nil }
    return "Clean, yet this form is wrong: \(blindSpot)."
  }

  /// The leaks piling up across runs: `CartScreen alive: 20`, for each type
  /// with more than one instance alive.
  static func accumulation(_ state: AppState, width: Int) -> [(String, Style)] {
    let piling = state.liveCounts.filter { $0.value > 1 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
    guard !piling.isEmpty else { return [] }
    let text = "Across runs: " + piling.map { "\($0.key) alive: \($0.value)" }.joined(separator: ", ")
    return TextWrapping.list(text, separator: ", ", width: width).map { ($0, .warning) }
  }

  /// What a run without leaks has been through: waiting, checked, or not closed yet.
  static func cleanStatus(_ state: AppState) -> String {
    let pending = state.report.pendingExpectations
    if pending > 0 {
      return
        "Checking \(pending) object\(pending == 1 ? "" : "s") when the grace delay after the close has passed…"
    }
    if let check = state.lastCheck {
      return "✓ Checked \(check.summary)."
    }
    return state.openScenario == nil
      ? "Nothing checked yet: open a scenario, then close it (Esc) to start the leak check."
      : "Close the screen (Esc) to start the leak check."
  }

  /// `open  alive 4 s` or `resolved after 10.0 s`.
  static func status(of leak: LeakedInstance, at now: Duration) -> String {
    switch leak.status {
    case .open: "open  alive \(TimeFormat.wholeSeconds(leak.age(at: now)))"
    case .resolved(let after): "resolved after \(TimeFormat.tenths(after))"
    }
  }
}
