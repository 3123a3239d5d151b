import TextGrid

/// The event log: the newest lines that fit, each with its time on the app's
/// clock, its kind and what happened.
///
/// ```
/// ┌─ Log ─────────────────────────────────────────┐
/// │   0.0 s opened   Closure capture (strong)      │
/// │   2.0 s closed   Closure capture (strong)      │
/// │   3.0 s detected ClosureScreen#1 alive 1.0 s … │
/// ```
enum EventLogView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let inner = grid.drawBox(area, title: "Log", style: .muted, titleStyle: .title)
    guard inner.width > 0, inner.height > 0 else { return }
    guard !state.log.isEmpty else {
      grid.put("Nothing yet: Enter opens a scenario.", at: inner.origin, style: .muted, maxWidth: inner.width)
      return
    }
    for (row, entry) in state.log.suffix(inner.height).enumerated() {
      let y = inner.minY + row
      let time = TimeFormat.tenths(entry.time)
      var x = inner.minX
      x += grid.put(
        String(repeating: " ", count: max(0, 7 - time.count)) + time, at: Point(x: x, y: y), style: .muted)
      x += 1
      let kind = entry.kind.rawValue.padded(toWidth: 9)
      x += grid.put(kind, at: Point(x: x, y: y), style: style(for: entry.kind), maxWidth: inner.maxX - x)
      grid.put(
        entry.text.truncated(toWidth: max(0, inner.maxX - x)), at: Point(x: x, y: y), maxWidth: inner.maxX - x
      )
    }
  }

  private static func style(for kind: LogEntry.Kind) -> Style {
    switch kind {
    case .opened, .closed: .title
    case .action: .key
    case .expected: .muted
    case .detected: .alert
    case .resolved: .success
    case .budget: .warning
    }
  }
}
