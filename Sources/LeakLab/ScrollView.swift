import TextGrid

/// Draws content that may be taller and wider than its pane: the window at a
/// scroll position, and in the pane's bottom border how much is cut off
/// (`↑ 3  ↓ 12 more  ←→`). Any pane can use it, with content made of lines or
/// any ``TextGrid/Grid`` (a picture of a retain graph, say).
///
/// ```swift
/// let box = Rect(x: 0, y: 0, width: 40, height: 12)
/// let inner = grid.drawBox(box, title: "Why is it alive?")
/// let content = Grid(lines: pathLines)
/// let shown = ScrollView.draw(content, in: inner, box: box, at: state.explainScroll, on: &grid)
/// ```
enum ScrollView {
  /// Draws the window of `content` at `position` (clamped) into `inner`, and
  /// the cut-off marks into the bottom border of `box` (when given); returns
  /// the clamped position.
  @discardableResult
  static func draw(
    _ content: Grid, in inner: Rect, box: Rect? = nil, at position: ScrollPosition, on grid: inout Grid
  ) -> ScrollPosition {
    let shown = position.clamped(content: content.size, viewport: inner.size)
    grid.draw(content, from: Point(x: shown.x, y: shown.y), in: inner)
    if let box { drawMarks(content: content.size, viewport: inner.size, at: shown, box: box, on: &grid) }
    return shown
  }

  /// `↑ 3  ↓ 12 more  ←→` in the bottom border, right-aligned; nothing when all shows.
  static func marks(content: Size, viewport: Size, at position: ScrollPosition) -> String? {
    var parts: [String] = []
    if position.y > 0 { parts.append("↑ \(position.y)") }
    let below = content.height - position.y - viewport.height
    if below > 0 { parts.append("↓ \(below) more") }
    let isWide = content.width > viewport.width
    if isWide {
      parts.append(position.x > 0 ? (position.x + viewport.width < content.width ? "←→" : "←") : "→")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "  ")
  }

  /// Draws ``marks(content:viewport:at:)`` into the bottom border of `box`.
  static func drawMarks(
    content: Size, viewport: Size, at position: ScrollPosition, box: Rect, on grid: inout Grid
  ) {
    guard let text = marks(content: content, viewport: viewport, at: position), box.height >= 2 else {
      return
    }
    let label = " \(text) "
    let width = label.displayWidth
    guard width + 4 <= box.width else { return }
    grid.put(label, at: Point(x: box.maxX - 2 - width, y: box.maxY - 1), style: .key)
  }
}
