import TextGrid

/// The `?` overlay: every binding of the key map with its help text, in a
/// box over the middle of the screen.
enum HelpOverlayView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let rows = state.keyMap.helpRows
    let keysWidth = rows.map(\.keys.displayWidth).max() ?? 0
    let width = min(area.width - 2, 76)
    let helpWidth = max(1, width - 4 - keysWidth - 2)
    var lines: [(keys: String, help: String)] = []
    for row in rows {
      for (index, text) in TextWrapping.words(row.help, width: helpWidth).enumerated() {
        lines.append((index == 0 ? row.keys : "", text))
      }
    }
    let footer = "? or Esc closes this help · LeakLab \(LeakLabVersion.current)"
    let box = area.centered(Size(width: width, height: lines.count + 4))
    grid.fill(box.width >= area.width - 4 ? area : box.inset(by: -1).intersection(area))
    let inner = grid.drawBox(box, title: "Keys", style: .title, titleStyle: .title).inset(left: 1, right: 1)
    for (row, line) in lines.enumerated() where row < inner.height {
      let y = inner.minY + row
      grid.put(line.keys, at: Point(x: inner.minX, y: y), style: .key, maxWidth: keysWidth)
      grid.put(line.help, at: Point(x: inner.minX + keysWidth + 2, y: y), maxWidth: helpWidth)
    }
    if inner.height > lines.count + 1 {
      grid.put(
        footer, at: Point(x: inner.minX, y: inner.minY + lines.count + 1), style: .muted,
        maxWidth: inner.width)
    }
  }
}
