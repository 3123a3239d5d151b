import TextGrid

/// The mouse: a click focuses the pane under it and selects what it points at
/// (a scenario, a leak); the wheel scrolls the pane under the pointer.
extension AppReducer {
  static func useMouse(_ state: inout AppState, _ event: MouseEvent) -> [AppEffect] {
    let layout = AppLayout(size: state.screenSize, state: state)
    guard let pane = pane(at: event.point, in: layout) else { return [] }
    switch event.kind {
    case .press:
      state.focus = pane
      click(&state, pane: pane, at: event.point, layout: layout)
    case .wheelUp, .wheelDown:
      let step: ScrollStep = event.kind == .wheelUp ? .wheelUp : .wheelDown
      if pane == .catalogue {
        moveSelection(&state, by: step == .wheelUp ? -1 : 1)
      } else {
        scroll(&state, pane: pane, step)
      }
    case .release:
      break
    }
    return []
  }

  /// The focusable pane whose box holds `point`.
  static func pane(at point: Point, in layout: AppLayout) -> FocusPane? {
    if layout.catalogue.contains(point) { return .catalogue }
    if layout.about.contains(point) { return .about }
    if layout.code.contains(point) { return .code }
    if let overlay = layout.overlay, overlay.contains(point) { return .detector }
    if layout.log.contains(point) { return .log }
    return nil
  }

  private static func click(_ state: inout AppState, pane: FocusPane, at point: Point, layout: AppLayout) {
    switch pane {
    case .catalogue:
      let inner = layout.catalogue.inset(by: 1)
      guard inner.contains(point) else { return }
      let visible = state.visibleCatalogueIndices
      let selectedRow = visible.firstIndex(of: state.selectedIndex) ?? 0
      let first = max(0, selectedRow - inner.height + 1)
      let row = first + point.y - inner.minY
      guard visible.indices.contains(row) else { return }
      guard state.openScenario == nil else {
        if visible[row] != state.selectedIndex { state.notice = "Esc closes the open scenario first" }
        return
      }
      select(&state, visible[row])
    case .detector:
      guard let metrics = PaneMetrics.of(.detector, in: state), let overlay = layout.overlay else { return }
      let top = overlay.maxY - 1 - metrics.viewport.height
      let row = metrics.position.y + point.y - top
      let details = OverlayView.detailContent(state, width: metrics.viewport.width)
      guard let index = details.leakRows.firstIndex(where: { $0.contains(row) }) else { return }
      state.selectedLeakIndex = index
      state.scroll[.detector] = metrics.position
    case .about, .code, .log:
      break
    }
  }
}
