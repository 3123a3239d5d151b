import CNcurses
import TextGrid

/// Copies grids to a curses window, sending only the cells that changed since the previous frame.
@MainActor
struct ScreenPainter {
  let colors: ColorPairs
  let isUnicode: Bool
  private var previous: Grid?

  init(colors: ColorPairs, isUnicode: Bool) {
    self.colors = colors
    self.isUnicode = isUnicode
  }

  /// Forgets the previous frame, so the next one is drawn whole (after a resize).
  mutating func invalidate() {
    previous = nil
  }

  /// Draws `grid` clipped to `screenSize`, then updates the physical screen.
  mutating func draw(_ grid: Grid, on window: UnsafeMutablePointer<WINDOW>, screenSize: Size) {
    let old = previous.flatMap { $0.size == grid.size ? $0.cells : nil }
    if old == nil { werase(window) }
    let columns = min(grid.width, screenSize.width)
    let rows = min(grid.height, screenSize.height)
    let cells = grid.cells
    for y in 0..<rows {
      let row = y * grid.width
      for x in 0..<columns {
        let cell = cells[row + x]
        if let old, old[row + x] == cell { continue }
        paint(cell, x: x, y: y, lastColumn: columns - 1, on: window)
      }
    }
    previous = grid
    wnoutrefresh(window)
    doupdate()
  }

  private func paint(_ cell: Cell, x: Int, y: Int, lastColumn: Int, on window: UnsafeMutablePointer<WINDOW>) {
    let (attributes, pair) = colors.resolve(cell.style)
    var characters: [wchar_t]
    if cell.isContinuation {
      guard !isUnicode else { return }  // covered by the wide character to its left
      characters = [wchar_t(0x20)]
    } else if cell.width == 2 && x == lastColumn {
      characters = [wchar_t(0x20)]  // the screen is narrower than the grid: no room for both halves
    } else {
      characters =
        isUnicode ? Self.wideCharacters(of: cell.character) : [Self.asciiStandIn(for: cell.character)]
    }
    _ = cn_put_cell(window, Int32(y), Int32(x), &characters, Int32(characters.count), attributes, pair)
  }

  /// The character as curses takes it: one spacing character, then up to four
  /// combining marks. Joiners and further spacing characters (the rest of an
  /// emoji ZWJ sequence) are dropped, as the cell has room for one glyph.
  static func wideCharacters(of character: Character) -> [wchar_t] {
    var result: [wchar_t] = []
    for scalar in character.unicodeScalars {
      if result.isEmpty {
        if scalar.displayWidth > 0 { result.append(wchar_t(bitPattern: scalar.value)) }
      } else if result.count < Int(CCHARW_MAX), scalar.displayWidth == 0, isCombining(scalar) {
        result.append(wchar_t(bitPattern: scalar.value))
      }
    }
    return result.isEmpty ? [wchar_t(0x20)] : result
  }

  private static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark: true
    default: false
    }
  }

  /// An ASCII character that stands in for `character` when the locale is not UTF-8.
  static func asciiStandIn(for character: Character) -> wchar_t {
    guard let scalar = character.unicodeScalars.first else { return 0x20 }
    if scalar.isASCII { return wchar_t(scalar.value) }
    let standIn: Character =
      switch scalar.value {
      case 0x2500, 0x2501, 0x2550, 0x2574, 0x2576: "-"
      case 0x2502, 0x2503, 0x2551, 0x2575, 0x2577: "|"
      case 0x250C...0x254B, 0x2552...0x256C, 0x256D...0x2570: "+"
      case 0x2026: "."
      case 0x2191: "^"
      case 0x2193: "v"
      case 0x2190: "<"
      case 0x2192: ">"
      case 0x2022, 0x25CF: "*"
      case 0x00A0: " "
      default: "?"
      }
    return wchar_t(standIn.unicodeScalars.first!.value)
  }
}
