import TextGrid

/// The catalogue list: one row per scenario with its mode, the selected row
/// in reverse video, `▶` beside the open one. With a `/` filter only the
/// matching scenarios are listed, and the title shows the filter.
///
/// ```
/// ┌─ Scenarios · /timer ─────────────────────┐
/// │▶ Repeating timer never invalidated strong│
/// ```
enum CatalogueListView {
  /// The widest row the list needs: `▶ ` + the longest title + ` strong`, and borders.
  static func neededWidth(_ state: AppState) -> Int {
    let title = state.catalogue.map(\.title.displayWidth).max() ?? 0
    return 2 + title + 1 + "strong".count + 2
  }

  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let border: Style = state.focus == .catalogue ? .focused : .muted
    let inner = grid.drawBox(area, title: title(state), style: border, titleStyle: .title)
    guard inner.width > 0, inner.height > 0 else { return }
    let visible = state.visibleCatalogueIndices
    guard !visible.isEmpty else {
      let text = state.catalogue.isEmpty ? "No scenarios" : "No scenario matches /\(state.filter)"
      grid.put(text, at: inner.origin, style: .muted, maxWidth: inner.width)
      return
    }
    let selectedRow = visible.firstIndex(of: state.selectedIndex) ?? 0
    let first = max(0, selectedRow - inner.height + 1)
    for (row, index) in visible[first...].enumerated() where row < inner.height {
      drawRow(state, index: index, y: inner.minY + row, in: inner, on: &grid)
    }
    ScrollView.drawMarks(
      content: Size(width: inner.width, height: visible.count), viewport: inner.size,
      at: ScrollPosition(y: first), box: area, on: &grid)
  }

  /// `Scenarios`, with the filter while one is set or typed: `Scenarios · /timer▏`.
  static func title(_ state: AppState) -> String {
    guard state.isEditingFilter || !state.filter.isEmpty else { return "Scenarios" }
    return "Scenarios · /\(state.filter)\(state.isEditingFilter ? "▏" : "")"
  }

  private static func drawRow(_ state: AppState, index: Int, y: Int, in inner: Rect, on grid: inout Grid) {
    let entry = state.catalogue[index]
    let isOpen = state.openScenario?.id == entry.id
    let isSelected = index == state.selectedIndex
    var style: Style = state.openScenario != nil && !isOpen ? .muted : .plain
    if isSelected { style = .selected }
    let mode = entry.mode.rawValue
    let titleWidth = max(0, inner.width - 2 - mode.count - 1)
    grid.fill(Rect(x: inner.minX, y: y, width: inner.width, height: 1), style: style)
    grid.put(isOpen ? "▶ " : "  ", at: Point(x: inner.minX, y: y), style: style)
    grid.put(
      entry.title.truncated(toWidth: titleWidth), at: Point(x: inner.minX + 2, y: y), style: style,
      maxWidth: titleWidth)
    var modeStyle: Style = entry.mode == .strong ? .warning : .success
    if isSelected { modeStyle = modeStyle.adding(.reverse) }
    grid.put(mode, at: Point(x: inner.maxX - mode.count, y: y), style: modeStyle, maxWidth: mode.count)
  }
}
