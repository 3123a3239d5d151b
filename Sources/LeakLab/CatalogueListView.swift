import TextGrid

/// The catalogue list: one row per scenario with its mode, the selected row
/// in reverse video, `▶` beside the open one.
///
/// ```
/// ┌─ Scenarios ──────────┐
/// │▶ Closure capture  strong│
/// │  Strong delegate    weak│
/// ```
enum CatalogueListView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let inner = grid.drawBox(area, title: "Scenarios", style: .muted, titleStyle: .title)
    guard inner.width > 0, inner.height > 0 else { return }
    guard !state.catalogue.isEmpty else {
      grid.put("No scenarios", at: inner.origin, style: .muted, maxWidth: inner.width)
      return
    }
    let first = max(0, state.selectedIndex - inner.height + 1)
    for (row, index) in (first..<state.catalogue.count).enumerated() where row < inner.height {
      let entry = state.catalogue[index]
      let isOpen = state.openScenario?.id == entry.id
      let isSelected = index == state.selectedIndex
      var style: Style = state.openScenario != nil && !isOpen ? .muted : .plain
      if isSelected { style = .selected }
      let mode = entry.mode.rawValue
      let titleWidth = max(0, inner.width - 2 - mode.count - 1)
      let title = entry.title.truncated(toWidth: titleWidth)
      let y = inner.minY + row
      grid.fill(Rect(x: inner.minX, y: y, width: inner.width, height: 1), style: style)
      grid.put(isOpen ? "▶ " : "  ", at: Point(x: inner.minX, y: y), style: style)
      grid.put(title, at: Point(x: inner.minX + 2, y: y), style: style, maxWidth: titleWidth)
      var modeStyle: Style = entry.mode == .strong ? .warning : .success
      if isSelected { modeStyle = modeStyle.adding(.reverse) }
      grid.put(mode, at: Point(x: inner.maxX - mode.count, y: y), style: modeStyle, maxWidth: mode.count)
    }
  }
}
