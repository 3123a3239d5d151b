import TextGrid

/// The last row: what has the keyboard (the focused pane, or the view or
/// filter on top), a notice if a key just did something worth saying, then
/// the key hints for what is on screen, generated from the key map
/// (``KeyMap/statusHints(in:)``).
///
/// ```
///  Scenarios  ↑↓ select  Tab pane  Enter open  / filter  w strong/weak  e explain  ? help  q quit
/// ```
enum StatusBarView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    guard area.width > 0, area.height > 0 else { return }
    let y = area.minY
    var x = area.minX
    x += grid.put(" \(focusName(state)) ", at: Point(x: x, y: y), style: .selected, maxWidth: area.width)
    x += 1
    if let notice = state.notice {
      x += grid.put(notice.truncated(toWidth: max(0, area.maxX - x)), at: Point(x: x, y: y), style: .warning)
      x += 2
    }
    for (keys, hint) in state.keyMap.statusHints(in: state.keyContext) {
      let width = keys.displayWidth + 1 + hint.displayWidth
      guard x + width <= area.maxX else { break }
      x += grid.put(keys, at: Point(x: x, y: y), style: .key)
      x += 1
      x += grid.put(hint, at: Point(x: x, y: y))
      x += 2
    }
  }

  /// What the keys act on now: `Help`, `Filter /tim▏`, `Explain`, or the focused pane.
  static func focusName(_ state: AppState) -> String {
    switch state.keyContext {
    case .help: "Help"
    case .filtering: "Filter /\(state.filter)▏"
    case .explain: "Explain"
    default: state.focus.title
    }
  }
}
