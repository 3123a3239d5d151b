import TextGrid

/// Where each pane goes for a terminal size.
///
/// At the minimum size, 80×24: the catalogue list and the scenario's notes on
/// the left (24 columns); on the right the phone beside the code on top, and
/// the detector overlay above the event log below; the status bar on the last
/// row. The list widens until no title is cut (48 columns, at 104 columns and
/// wider); the rest goes to the code pane, the notes and the log. Panes whose
/// content is longer scroll (the code pane to its marked line by default).
struct AppLayout {
  /// The smallest terminal the app lays out properly; the terminal layer shows
  /// a "too small" message below it.
  static let minimumSize = Size(width: 80, height: 24)

  var catalogue: Rect
  var about: Rect
  var phone: Rect
  var code: Rect
  var overlay: Rect?
  var log: Rect
  var statusBar: Rect
  /// The guided tour's line above the status bar, while the tour is shown.
  var tour: Rect?
  /// Everything but the status bar (and the tour): where the help and explain views are centred.
  var body: Rect

  init(size: Size, state: AppState) {
    let barHeight = StatusBarView.height(state, width: size.width)
    let (statusBar, screen) = Rect(size: size).divided(atDistance: barHeight, from: .bottom)
    self.statusBar = statusBar
    let tourHeight = TourView.height(state, width: size.width)
    let (tour, body) = screen.divided(atDistance: tourHeight, from: .bottom)
    self.tour = tourHeight > 0 ? tour : nil
    self.body = body
    // The list takes the width its longest title needs when the right side
    // keeps room for the phone and a readable code pane (56 columns).
    let leftWidth = max(24, min(CatalogueListView.neededWidth(state), size.width - 56))
    let (left, right) = body.divided(atDistance: leftWidth, from: .left)
    // The notes below keep at least 10 rows (two fifths when taller): the
    // list scrolls with its selection, the notes scroll too.
    let notesMinimum = max(10, left.height * 2 / 5)
    let listHeight = min(left.height, state.catalogue.count + 2, max(5, left.height - notesMinimum))
    (catalogue, about) = left.divided(atDistance: listHeight, from: .top)
    let topHeight = max(12, body.height * 11 / 20)
    let (top, bottom) = right.divided(atDistance: topHeight, from: .top)
    let phoneWidth = min(30, max(22, right.width * 2 / 5))
    (phone, code) = top.divided(atDistance: phoneWidth, from: .left)
    if state.isOverlayVisible {
      // As tall as its content, leaving the log at least `logMinimum` rows;
      // the label and the rule always show, the details scroll.
      let logMinimum = 4
      let content = OverlayView.contentHeight(state, innerWidth: bottom.width - 2)
      let header = OverlayView.headerHeight(state, innerWidth: bottom.width - 2)
      let height = max(header + 1, min(content, bottom.height - logMinimum - 2)) + 2
      let (overlay, log) = bottom.divided(atDistance: height, from: .top)
      self.overlay = overlay
      self.log = log
    } else {
      overlay = nil
      log = bottom
    }
  }
}
