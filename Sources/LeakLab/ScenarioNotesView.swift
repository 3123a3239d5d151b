import TextGrid

/// The notes on the scenario the code pane shows: its pattern, the fix, why
/// it leaks and its actions. A pane like the others: Tab or a click focuses
/// it, ↑↓, the page keys and the wheel scroll it, and its bottom border says
/// how much is below (`↓ 6 more`), so the fix and the "why" are never cut.
///
/// ```
/// ┌─ About ──────────────┐
/// │A stored closure      │
/// │captures self         │
/// │strongly.             │
/// │                      │
/// │Fix: Capture [weak    │
/// └───────── ↓ 9 more ───┘
/// ```
enum ScenarioNotesView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    guard area.height >= 3, let entry = state.shownEntry else { return }
    let border: Style = state.focus == .about ? .focused : .muted
    let inner = grid.drawBox(area, title: "About", style: border, titleStyle: .title)
    guard inner.width > 0, inner.height > 0 else { return }
    ScrollView.draw(
      Grid(lines: lines(entry, width: inner.width)), in: inner, box: area, at: state.scroll[.about] ?? .top,
      on: &grid)
  }

  /// Everything the pane says about `entry`, word-wrapped to `width` columns.
  static func lines(_ entry: CatalogueEntry, width: Int) -> [(String, Style)] {
    var lines: [(String, Style)] = []
    lines += TextWrapping.words(entry.pattern, width: width, cutsLongWords: false).map { ($0, .muted) }
    lines.append(("", .plain))
    lines += TextWrapping.words("Fix: " + entry.fix, width: width, cutsLongWords: false).map {
      ($0, .success)
    }
    lines.append(("", .plain))
    lines += TextWrapping.words(entry.whyItLeaks, width: width, cutsLongWords: false).map { ($0, .plain) }
    if let blindSpot = entry.detectorBlindSpot {
      lines.append(("", .plain))
      lines += TextWrapping.words("No detector sees it: \(blindSpot).", width: width, cutsLongWords: false)
        .map { ($0, .warning) }
    }
    if let inARealApp = entry.inARealApp {
      lines.append(("", .plain))
      lines += TextWrapping.words(inARealApp, width: width, cutsLongWords: false).map { ($0, .plain) }
    }
    if !entry.actions.isEmpty {
      lines.append(("", .plain))
      for (index, action) in entry.actions.enumerated().prefix(9) {
        lines += TextWrapping.words("\(index + 1) \(action.title): \(action.summary)", width: width)
          .map { ($0, .muted) }
      }
    }
    while lines.last?.0.isEmpty == true { lines.removeLast() }
    return lines
  }
}
