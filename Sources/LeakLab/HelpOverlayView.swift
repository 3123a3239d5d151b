import TextGrid

/// The `?` overlay: every binding of the key map with its help text, in a
/// box over the middle of the screen. Taller than the screen, it scrolls
/// (↑↓, PgUp/PgDn); any other key closes it.
enum HelpOverlayView {
  /// Where the box, its scrolling rows and its fixed last line go in `area`.
  struct Frame {
    var box: Rect
    var viewport: Rect
    var footer: Rect
  }

  static func frame(_ state: AppState, in area: Rect) -> Frame {
    frame(state.keyMap, in: area)
  }

  static func frame(_ keyMap: KeyMap, in area: Rect) -> Frame {
    let width = min(area.width - 2, 100)
    let content = Self.content(keyMap, width: max(1, width - 4))
    let box = area.centered(Size(width: width, height: min(area.height, content.height + 4)))
    let inner = box.inset(by: 1).inset(left: 1, right: 1)
    let (footer, rest) = inner.divided(atDistance: min(1, inner.height), from: .bottom)
    return Frame(box: box, viewport: rest.height > 2 ? rest.inset(bottom: 1) : rest, footer: footer)
  }

  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    draw(state.keyMap, scroll: state.helpScroll, in: area, on: &grid)
  }

  /// Draws the help of any key map (the watch's too), scrolled to `scroll`.
  static func draw(_ keyMap: KeyMap, scroll: ScrollPosition, in area: Rect, on grid: inout Grid) {
    let frame = frame(keyMap, in: area)
    grid.fill(frame.box.width >= area.width - 4 ? area : frame.box.inset(by: -1).intersection(area))
    grid.drawBox(frame.box, title: "Keys", style: .title, titleStyle: .title)
    let content = Self.content(keyMap, width: frame.viewport.width)
    ScrollView.draw(content, in: frame.viewport, box: frame.box, at: scroll, on: &grid)
    let footer = "? or Esc closes · ↑↓ PgUp PgDn scroll · LeakLab \(LeakLabVersion.current)"
    grid.put(footer, at: frame.footer.origin, style: .muted, maxWidth: frame.footer.width)
  }

  /// Every binding: its keys in a column, its help wrapped beside them.
  static func content(_ state: AppState, width: Int) -> Grid {
    content(state.keyMap, width: width)
  }

  static func content(_ keyMap: KeyMap, width: Int) -> Grid {
    let rows = keyMap.helpRows
    let keysWidth = (rows.map(\.keys.displayWidth).max() ?? 0) + 2
    let helpWidth = max(1, width - keysWidth)
    var lines: [(keys: String, help: String)] = []
    for row in rows {
      for (index, text) in TextWrapping.words(row.help, width: helpWidth).enumerated() {
        lines.append((index == 0 ? row.keys : "", text))
      }
    }
    var grid = Grid(size: Size(width: max(1, width), height: max(1, lines.count)))
    for (y, line) in lines.enumerated() {
      grid.put(line.keys, at: Point(x: 0, y: y), style: .key)
      grid.put(line.help, at: Point(x: keysWidth, y: y))
    }
    return grid
  }
}
