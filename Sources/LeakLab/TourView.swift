import TextGrid

/// The guided tour's line above the status bar: the step to do now, and how
/// to hide the tour. Two rows when one is too narrow.
///
/// ```
///  Tour 3/7 · Esc closes it: 1 s later the detector checks what is left.  t hides
/// ```
enum TourView {
  static let hide = "t hides"

  /// The rows the tour takes at `width` columns: none when it is not shown.
  static func height(_ state: AppState, width: Int) -> Int {
    lines(state, width: width).count
  }

  static func lines(_ state: AppState, width: Int) -> [String] {
    guard let step = state.tour, width > 10 else { return [] }
    let text = step.text(in: state) + "  " + hide
    guard text.displayWidth + 1 > width else { return [text] }
    return Array(TextWrapping.words(text, width: width - 1).prefix(2))
  }

  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    grid.fill(area, style: .selected)
    for (row, line) in lines(state, width: area.width).enumerated() where row < area.height {
      grid.put(
        " " + line, at: Point(x: area.minX, y: area.minY + row), style: .selected, maxWidth: area.width)
    }
  }
}
