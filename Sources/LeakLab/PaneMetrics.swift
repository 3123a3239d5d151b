import TextGrid

/// How big a scrolling pane's content and window are, and where it is
/// scrolled to now: what the reducer needs to scroll by pages and to stop at
/// the ends. Computed by the same functions that draw the panes, for the last
/// terminal size (``AppState/screenSize``), so keys and pictures agree.
struct PaneMetrics: Equatable {
  var content: Size
  var viewport: Size
  var position: ScrollPosition

  /// The metrics of `pane`, or `nil` when it is not on screen (or does not scroll).
  static func of(_ pane: FocusPane, in state: AppState) -> PaneMetrics? {
    let layout = AppLayout(size: state.screenSize, state: state)
    switch pane {
    case .catalogue:
      return nil
    case .about:
      let inner = layout.about.inset(by: 1)
      guard layout.about.height >= 3, inner.width > 0, inner.height > 0, let entry = state.shownEntry else {
        return nil
      }
      let content = Grid(lines: ScenarioNotesView.lines(entry, width: inner.width)).size
      return PaneMetrics(
        content: content, viewport: inner.size,
        position: (state.scroll[.about] ?? .top).clamped(content: content, viewport: inner.size))
    case .code:
      let inner = layout.code.inset(by: 1)
      guard inner.width > 2, inner.height > 0 else { return nil }
      let content = CodePaneView.content(state, width: inner.width)
      let size = Size(width: inner.width, height: content.lines.count)
      let viewport = CodePaneView.codeArea(state, inner: inner).size
      return PaneMetrics(
        content: size, viewport: viewport,
        position: CodePaneView.position(state, content: content, viewport: viewport)
          .clamped(content: size, viewport: viewport))
    case .detector:
      guard let overlay = layout.overlay else { return nil }
      let inner = overlay.inset(by: 1)
      let header = OverlayView.headerHeight(state, innerWidth: inner.width)
      let viewport = inner.inset(top: header)
      guard viewport.width > 0, viewport.height > 0 else { return nil }
      let details = OverlayView.detailContent(state, width: viewport.width)
      let size = Size(width: viewport.width, height: details.lines.count)
      return PaneMetrics(
        content: size, viewport: viewport.size,
        position: OverlayView.position(state, details: details, viewport: viewport.size)
          .clamped(content: size, viewport: viewport.size))
    case .log:
      let inner = layout.log.inset(by: 1)
      guard inner.width > 0, inner.height > 0 else { return nil }
      let content = EventLogView.content(state, width: inner.width).size
      return PaneMetrics(
        content: content, viewport: inner.size,
        position: EventLogView.position(state, content: content, viewport: inner.size)
          .clamped(content: content, viewport: inner.size))
    }
  }

  /// The explain view's metrics.
  static func explain(in state: AppState) -> PaneMetrics {
    let layout = AppLayout(size: state.screenSize, state: state)
    let frame = ExplainView.frame(state, in: layout.body)
    let content = ExplainView.content(state, width: frame.viewport.width, room: frame.viewport.height).size
    return PaneMetrics(
      content: content, viewport: frame.viewport.size,
      position: state.explainScroll.clamped(content: content, viewport: frame.viewport.size))
  }

  /// The side-by-side view's metrics.
  static func comparison(in state: AppState) -> PaneMetrics {
    let layout = AppLayout(size: state.screenSize, state: state)
    let frame = ExplainView.frame(
      for: { width, _ in ComparisonView.content(state, width: width).height }, in: layout.body)
    let content = ComparisonView.content(state, width: frame.viewport.width).size
    return PaneMetrics(
      content: content, viewport: frame.viewport.size,
      position: state.comparisonScroll.clamped(content: content, viewport: frame.viewport.size))
  }

  /// Where `step` takes the pane.
  func moved(by step: ScrollStep) -> ScrollPosition {
    position.moved(by: step, content: content, viewport: viewport)
  }
}
