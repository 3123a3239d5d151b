import TextGrid

/// Where a pane's content is scrolled to: the content's column and row shown
/// at the pane's top-left corner.
///
/// A pane without a stored position uses its automatic one (the code pane
/// shows the marked line, the log follows its newest line, the others start
/// at the top). Positions are clamped to the content, so a pane never scrolls
/// past its last line.
///
/// ```swift
/// let position = ScrollPosition(x: 0, y: 12)
/// position.clamped(content: Size(width: 40, height: 20), viewport: Size(width: 30, height: 10))
/// // (0, 10): the last ten rows
/// ```
public struct ScrollPosition: Hashable, Sendable {
  /// The first content column shown.
  public var x: Int
  /// The first content row shown.
  public var y: Int

  /// A position at column `x`, row `y` of the content.
  public init(x: Int = 0, y: Int = 0) {
    self.x = x
    self.y = y
  }

  /// The top-left corner.
  public static let top = ScrollPosition()

  /// This position, kept where a `viewport` over `content` stays filled.
  public func clamped(content: Size, viewport: Size) -> ScrollPosition {
    ScrollPosition(
      x: max(0, min(x, content.width - viewport.width)),
      y: max(0, min(y, content.height - viewport.height)))
  }

  /// Where `step` moves this position for a `viewport` over `content` (clamped).
  public func moved(by step: ScrollStep, content: Size, viewport: Size) -> ScrollPosition {
    var next = self
    let page = max(1, viewport.height - 1)
    switch step {
    case .lineUp: next.y -= 1
    case .lineDown: next.y += 1
    case .pageUp: next.y -= page
    case .pageDown: next.y += page
    case .top: next.y = 0
    case .bottom: next.y = content.height
    case .left: next.x -= max(1, viewport.width / 4)
    case .right: next.x += max(1, viewport.width / 4)
    case .wheelUp: next.y -= 3
    case .wheelDown: next.y += 3
    }
    return next.clamped(content: content, viewport: viewport)
  }

  /// Whether a `viewport` at this position shows the content's last row.
  public func isAtBottom(content: Size, viewport: Size) -> Bool {
    y + viewport.height >= content.height
  }
}

/// One scrolling move: a key's or the wheel's.
public enum ScrollStep: String, CaseIterable, Hashable, Sendable {
  /// ↑ or `k` in a scrolling pane.
  case lineUp
  /// ↓ or `j` in a scrolling pane.
  case lineDown
  /// PgUp: a page up (one line stays in view).
  case pageUp
  /// PgDn: a page down.
  case pageDown
  /// Home or `g`: the first line.
  case top
  /// End or `G`: the last line.
  case bottom
  /// ← or `h`: a quarter of the pane to the left.
  case left
  /// → or `l`: a quarter of the pane to the right.
  case right
  /// The wheel, away from the user: three lines up.
  case wheelUp
  /// The wheel, towards the user: three lines down.
  case wheelDown
}
