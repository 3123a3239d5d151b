import TextGrid

/// Focus, moving and scrolling: what ↑↓, Tab and the page keys do to the focused pane.
extension AppReducer {
  /// ↑↓: the catalogue's selection, the detector's leak cursor, or a line of scroll.
  static func move(_ state: inout AppState, by offset: Int) {
    switch state.focus {
    case .catalogue:
      moveSelection(&state, by: offset)
    case .detector:
      let count = state.report.leaks.count
      guard count > 0 else { return scroll(&state, offset < 0 ? .lineUp : .lineDown) }
      state.selectedLeakIndex = max(0, min(count - 1, state.selectedLeakIndex + offset))
      state.scroll[.detector] = nil
    case .about, .code, .log:
      scroll(&state, offset < 0 ? .lineUp : .lineDown)
    }
  }

  /// The page keys in the focused pane; in the catalogue they move the selection.
  static func scroll(_ state: inout AppState, _ step: ScrollStep) {
    if state.focus == .catalogue {
      let visible = state.visibleCatalogueIndices
      let row = visible.firstIndex(of: state.selectedIndex) ?? 0
      switch step {
      case .lineUp, .wheelUp: moveSelection(&state, by: -1)
      case .lineDown, .wheelDown: moveSelection(&state, by: 1)
      case .pageUp: moveSelection(&state, by: -max(1, pageRows(state)))
      case .pageDown: moveSelection(&state, by: max(1, pageRows(state)))
      case .top: moveSelection(&state, by: -row)
      case .bottom: moveSelection(&state, by: visible.count - 1 - row)
      case .left, .right: break
      }
      return
    }
    if state.focus == .detector, !state.report.leaks.isEmpty {
      // g/G take the leak cursor to the first or last leak (the pane follows it).
      switch step {
      case .top:
        state.selectedLeakIndex = 0
        state.scroll[.detector] = nil
        return
      case .bottom:
        state.selectedLeakIndex = state.report.leaks.count - 1
        state.scroll[.detector] = nil
        return
      default:
        break
      }
    }
    scroll(&state, pane: state.focus, step)
  }

  /// Scrolls `pane` by `step`; the log follows its newest line again once scrolled to the end.
  static func scroll(_ state: inout AppState, pane: FocusPane, _ step: ScrollStep) {
    guard let metrics = PaneMetrics.of(pane, in: state) else { return }
    let position = metrics.moved(by: step)
    if pane == .log, position.isAtBottom(content: metrics.content, viewport: metrics.viewport) {
      state.scroll[.log] = nil
    } else {
      state.scroll[pane] = position
    }
    if pane == .detector { keepLeakCursorInView(&state, at: position, viewport: metrics.viewport) }
  }

  /// After the detector scrolled, its leak cursor moves to a leak in view, so
  /// that `e` and `y` never act on a leak the user cannot see.
  private static func keepLeakCursorInView(
    _ state: inout AppState, at position: ScrollPosition, viewport: Size
  ) {
    let rows = OverlayView.detailContent(state, width: viewport.width).leakRows
    guard !rows.isEmpty else { return }
    let shown = position.y..<(position.y + viewport.height)
    if rows.indices.contains(state.selectedLeakIndex), rows[state.selectedLeakIndex].overlaps(shown) {
      return
    }
    if let first = rows.firstIndex(where: { $0.overlaps(shown) }) {
      state.selectedLeakIndex = first
    } else {
      state.selectedLeakIndex = shown.lowerBound >= (rows.last?.upperBound ?? 0) ? rows.count - 1 : 0
    }
  }

  /// Tab / Shift-Tab: the next pane on screen (the detector only while the overlay shows).
  static func moveFocus(_ state: inout AppState, forward: Bool) {
    var pane = state.focus
    repeat {
      pane = forward ? pane.next : pane.previous
    } while pane == .detector && !state.isOverlayVisible
    state.focus = pane
  }

  /// Moves the catalogue selection over the rows the filter lets through.
  static func moveSelection(_ state: inout AppState, by offset: Int) {
    guard state.openScenario == nil else {
      state.notice = "Esc closes the open scenario first"
      return
    }
    let visible = state.visibleCatalogueIndices
    guard !visible.isEmpty, offset != 0 || !visible.contains(state.selectedIndex) else { return }
    let row = visible.firstIndex(of: state.selectedIndex) ?? 0
    select(&state, visible[max(0, min(visible.count - 1, row + offset))])
  }

  /// Selects catalogue row `index`; the code pane shows its marked line
  /// again, the notes their top.
  static func select(_ state: inout AppState, _ index: Int) {
    guard index != state.selectedIndex else { return }
    state.selectedIndex = index
    state.scroll[.code] = nil
    state.scroll[.about] = nil
  }

  /// How many catalogue rows a page holds.
  private static func pageRows(_ state: AppState) -> Int {
    AppLayout(size: state.screenSize, state: state).catalogue.height - 3
  }
}
