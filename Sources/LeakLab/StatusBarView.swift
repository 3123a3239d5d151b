import TextGrid

/// The last row: what has the keyboard (the focused pane, or the view or
/// filter on top), a notice if a key just did something worth saying, then
/// the key hints for what is on screen, generated from the key map
/// (``KeyMap/statusHints(in:)``).
///
/// A notice is never cut: when it does not fit beside the pane's name, the
/// bar grows to two or three rows and the notice wraps (the hints come back
/// with the next key).
///
/// ```
///  Scenarios  ↑↓ select  Tab pane  Enter open  / filter  w strong/weak  e explain  ? help  q quit
/// ```
enum StatusBarView {
  /// The most rows the bar takes, for a long notice.
  static let maximumHeight = 3

  /// How many rows the bar takes at `width` columns.
  static func height(_ state: AppState, width: Int) -> Int {
    height(focusName: focusName(state), notice: state.notice, width: width)
  }

  /// How many rows a bar naming `focusName` with `notice` takes at `width` columns.
  static func height(focusName: String, notice: String?, width: Int) -> Int {
    max(1, noticeLines(notice, focusName: focusName, width: width).count)
  }

  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    draw(
      focusName: focusName(state), notice: state.notice,
      hints: state.keyMap.statusHints(in: state.keyContext), in: area, on: &grid)
  }

  /// Draws a bar: `focusName`, then `notice` or the key `hints` (any app's: the watch uses it too).
  static func draw(
    focusName: String, notice: String?, hints: [(keys: String, hint: String)], in area: Rect,
    on grid: inout Grid
  ) {
    guard area.width > 0, area.height > 0 else { return }
    let y = area.minY
    var x = area.minX
    x += grid.put(" \(focusName) ", at: Point(x: x, y: y), style: .selected, maxWidth: area.width)
    x += 1
    let lines = noticeLines(notice, focusName: focusName, width: area.width)
    for (row, line) in lines.enumerated() where row < area.height {
      grid.put(line, at: Point(x: x, y: y + row), style: .warning, maxWidth: max(0, area.maxX - x))
    }
    guard lines.count <= 1 else { return }
    if let line = lines.first { x += line.displayWidth + 2 }
    for (keys, hint) in hints {
      let width = keys.displayWidth + 1 + hint.displayWidth
      guard x + width <= area.maxX else { break }
      x += grid.put(keys, at: Point(x: x, y: y), style: .key)
      x += 1
      x += grid.put(hint, at: Point(x: x, y: y))
      x += 2
    }
  }

  /// The notice, wrapped to the room right of the pane's name: one line
  /// when it fits, at most ``maximumHeight``.
  static func noticeLines(_ state: AppState, width: Int) -> [String] {
    noticeLines(state.notice, focusName: focusName(state), width: width)
  }

  static func noticeLines(_ notice: String?, focusName: String, width: Int) -> [String] {
    guard let notice, !notice.isEmpty else { return [] }
    let room = max(10, width - focusName.displayWidth - 3)
    guard notice.displayWidth > room else { return [notice] }
    var lines = TextWrapping.words(notice, width: room, cutsLongWords: false)
    if lines.count > maximumHeight {
      lines = Array(lines.prefix(maximumHeight))
      lines[maximumHeight - 1] = (lines[maximumHeight - 1] + " …").truncated(toWidth: room)
    }
    return lines
  }

  /// What the keys act on now: `Help`, `Filter /tim▏`, `Explain`, or the focused pane.
  static func focusName(_ state: AppState) -> String {
    switch state.keyContext {
    case .help: "Help"
    case .filtering: "Filter /\(state.filter)▏"
    case .explain: "Explain"
    case .comparison: "Side by side"
    default: state.focus.title
    }
  }
}
