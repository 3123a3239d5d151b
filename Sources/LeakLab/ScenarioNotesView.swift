import TextGrid

/// The notes on the scenario the code pane shows: its pattern, the fix, why
/// it leaks and its actions, cut with `…` when the pane is short.
enum ScenarioNotesView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    guard area.height >= 3, let entry = state.shownEntry else { return }
    let inner = grid.drawBox(area, title: "About", style: .muted, titleStyle: .title)
    let width = inner.width
    var lines: [(String, Style)] = []
    lines += TextWrapping.words(entry.pattern, width: width).map { ($0, .muted) }
    lines.append(("", .plain))
    lines += TextWrapping.words("Fix: " + entry.fix, width: width).map { ($0, .success) }
    lines.append(("", .plain))
    lines += TextWrapping.words(entry.whyItLeaks, width: width).map { ($0, .plain) }
    if !entry.actions.isEmpty {
      lines.append(("", .plain))
      for (index, action) in entry.actions.enumerated().prefix(9) {
        lines += TextWrapping.words("\(index + 1) \(action.title): \(action.summary)", width: width)
          .map { ($0, .muted) }
      }
    }
    while lines.last?.0.isEmpty == true { lines.removeLast() }
    if lines.count > inner.height, inner.height > 0 {
      lines = Array(lines.prefix(inner.height))
      let last = lines[lines.count - 1]
      lines[lines.count - 1] = ((last.0 + " …").truncated(toWidth: width), last.1)
    }
    grid.putLines(lines, in: inner)
  }
}
