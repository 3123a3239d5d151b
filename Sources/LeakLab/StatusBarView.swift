import TextGrid

/// The last row: a notice if a key just did nothing, then the key hints for
/// what is on screen, generated from the key map (``KeyMap/statusHints(in:)``).
///
/// ```
///  ↑↓ select  Enter open  w strong/weak  o overlay  e explain  ? help  q quit
/// ```
enum StatusBarView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    guard area.width > 0, area.height > 0 else { return }
    var x = area.minX + 1
    let y = area.minY
    if let notice = state.notice {
      x += grid.put(notice.truncated(toWidth: area.width - 2), at: Point(x: x, y: y), style: .warning)
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
}
