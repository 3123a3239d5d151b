import TextGrid

/// The event log: each line with its time on the app's clock, its kind and
/// what happened, wrapped under its text. It follows the newest line until
/// the user scrolls back (focus it with Tab, then ↑, PgUp or `g`); scrolling
/// to the end follows again.
///
/// ```
/// ┌─ Log ─────────────────────────────────────────┐
/// │   0.0 s opened   Closure capture (strong)      │
/// │   2.0 s closed   Closure capture (strong)      │
/// │   3.0 s detected ClosureScreen#1 alive 1.0 s   │
/// │                  after close                   │
/// ```
enum EventLogView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let border: Style = state.focus == .log ? .focused : .muted
    let inner = grid.drawBox(area, title: "Log", style: border, titleStyle: .title)
    guard inner.width > 0, inner.height > 0 else { return }
    guard !state.log.isEmpty else {
      grid.put("Nothing yet: Enter opens a scenario.", at: inner.origin, style: .muted, maxWidth: inner.width)
      return
    }
    let content = Self.content(state, width: inner.width)
    ScrollView.draw(
      content, in: inner, box: area, at: position(state, content: content.size, viewport: inner.size),
      on: &grid)
  }

  /// The user's scroll position, else the end (the newest line).
  static func position(_ state: AppState, content: Size, viewport: Size) -> ScrollPosition {
    state.scroll[.log] ?? ScrollPosition(y: max(0, content.height - viewport.height))
  }

  /// The whole log at `width` columns.
  static func content(_ state: AppState, width: Int) -> Grid {
    let textColumn = 17
    var rows: [[(String, Style)]] = []
    for entry in state.log {
      let time = TimeFormat.tenths(entry.time)
      let lead = String(repeating: " ", count: max(0, 7 - time.count)) + time + " "
      let kind = entry.kind.rawValue.padded(toWidth: 9)
      let room = width - textColumn
      let parts =
        room >= 12 ? TextWrapping.words(entry.text, width: room, cutsLongWords: false) : [entry.text]
      for (index, part) in parts.enumerated() {
        rows.append(
          index == 0
            ? [(lead, .muted), (kind, style(for: entry.kind)), (part, .plain)]
            : [(String(repeating: " ", count: textColumn), .plain), (part, .plain)])
      }
    }
    var grid = Grid(size: Size(width: max(1, width), height: max(1, rows.count)))
    for (y, segments) in rows.enumerated() {
      var x = 0
      for (text, style) in segments {
        x += grid.put(text, at: Point(x: x, y: y), style: style)
      }
    }
    return grid
  }

  private static func style(for kind: LogEntry.Kind) -> Style {
    switch kind {
    case .opened, .closed: .title
    case .action: .key
    case .expected: .muted
    case .checked: .success
    case .detected: .alert
    case .resolved: .success
    case .budget: .warning
    case .running: .warning
    case .trap: .alert
    }
  }
}
