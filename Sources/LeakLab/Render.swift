import TextGrid

/// Draws the whole app for a terminal of `size`: a pure function of the state.
///
/// The same state and size always give the same grid, so tests compare
/// rendered text with stored snapshots and the terminal layer only copies it.
/// Any size is safe (panes are clipped); below 80×24 the terminal layer shows
/// a "terminal too small" message instead.
///
/// ```swift
/// let grid = render(model.state, size: Size(width: 80, height: 24))
/// print(grid.lines.joined(separator: "\n"))
/// ```
public func render(_ state: AppState, size: Size) -> Grid {
  var grid = Grid(size: size)
  let layout = AppLayout(size: size, state: state)
  CatalogueListView.draw(state, in: layout.catalogue, on: &grid)
  ScenarioNotesView.draw(state, in: layout.about, on: &grid)
  PhoneView.draw(state, in: layout.phone, on: &grid)
  CodePaneView.draw(state, in: layout.code, on: &grid)
  if let overlay = layout.overlay {
    OverlayView.draw(state, in: overlay, on: &grid)
  }
  EventLogView.draw(state, in: layout.log, on: &grid)
  StatusBarView.draw(state, in: layout.statusBar, on: &grid)
  if let tour = layout.tour { TourView.draw(state, in: tour, on: &grid) }
  if state.explainedLeakIndex != nil {
    ExplainView.draw(state, in: layout.body, on: &grid)
  }
  if state.isComparisonVisible {
    ComparisonView.draw(state, in: layout.body, on: &grid)
  }
  if state.isHelpVisible {
    HelpOverlayView.draw(state, in: layout.body, on: &grid)
  }
  return grid
}

/// The smallest terminal size the app lays out properly: 80×24.
public let minimumAppSize = AppLayout.minimumSize

extension AppState {
  /// The catalogue row the code pane and notes describe: the open one, else the selected one.
  var shownEntry: CatalogueEntry? { openEntry ?? selectedEntry }
}
