/// A rectangle of cells: an origin and a size, with the helpers layouts need.
///
/// Layouts cut a screen into areas with ``divided(atDistance:from:)`` and shrink
/// areas with ``inset(by:)``; a modal box sits in ``centered(_:)``.
///
/// ```swift
/// let screen = Rect(size: Size(width: 80, height: 24))
/// let (statusBar, body) = screen.divided(atDistance: 1, from: .bottom)
/// let (list, detail) = body.divided(atDistance: 30, from: .left)
/// let alert = detail.centered(Size(width: 30, height: 7))
/// ```
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The top-left cell.
  public var origin: Point
  /// The width and height.
  public var size: Size

  /// Creates a rectangle from its top-left cell and its size.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from its top-left cell and its size.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// Creates a rectangle of `size` at the top-left corner, `(0, 0)`.
  public init(size: Size) {
    self.init(origin: .zero, size: size)
  }

  /// The leftmost column.
  public var minX: Int { origin.x }
  /// The top row.
  public var minY: Int { origin.y }
  /// The column just right of the rectangle (exclusive).
  public var maxX: Int { origin.x + size.width }
  /// The row just below the rectangle (exclusive).
  public var maxY: Int { origin.y + size.height }
  /// The number of columns.
  public var width: Int { size.width }
  /// The number of rows.
  public var height: Int { size.height }

  /// Whether the rectangle has no cells.
  public var isEmpty: Bool { size.width == 0 || size.height == 0 }

  /// Whether `point` is one of the rectangle's cells.
  public func contains(_ point: Point) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// The cells both rectangles share; empty (at this origin) when they do not overlap.
  public func intersection(_ other: Rect) -> Rect {
    let x0 = max(minX, other.minX)
    let y0 = max(minY, other.minY)
    let x1 = min(maxX, other.maxX)
    let y1 = min(maxY, other.maxY)
    guard x1 > x0, y1 > y0 else { return Rect(origin: origin, size: .zero) }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The rectangle shrunk by `amount` cells on every side (never below zero size).
  public func inset(by amount: Int) -> Rect {
    inset(top: amount, left: amount, bottom: amount, right: amount)
  }

  /// The rectangle shrunk by the given number of cells on each side.
  ///
  /// The size never goes below zero; negative amounts grow the rectangle.
  public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
    let width = max(0, size.width - left - right)
    let height = max(0, size.height - top - bottom)
    return Rect(
      x: origin.x + min(left, size.width), y: origin.y + min(top, size.height), width: width, height: height)
  }

  /// An edge of a rectangle, for ``Rect/divided(atDistance:from:)``.
  public enum Edge: Sendable {
    case top, bottom, left, right
  }

  /// Cuts the rectangle in two: a slice `distance` cells thick along `edge`, and the rest.
  ///
  /// The slice is clamped to the rectangle, so the remainder may be empty.
  ///
  /// ```swift
  /// let (header, rest) = area.divided(atDistance: 2, from: .top)
  /// ```
  public func divided(atDistance distance: Int, from edge: Edge) -> (slice: Rect, remainder: Rect) {
    switch edge {
    case .top:
      let d = min(max(0, distance), height)
      return (
        Rect(x: minX, y: minY, width: width, height: d),
        Rect(x: minX, y: minY + d, width: width, height: height - d)
      )
    case .bottom:
      let d = min(max(0, distance), height)
      return (
        Rect(x: minX, y: maxY - d, width: width, height: d),
        Rect(x: minX, y: minY, width: width, height: height - d)
      )
    case .left:
      let d = min(max(0, distance), width)
      return (
        Rect(x: minX, y: minY, width: d, height: height),
        Rect(x: minX + d, y: minY, width: width - d, height: height)
      )
    case .right:
      let d = min(max(0, distance), width)
      return (
        Rect(x: maxX - d, y: minY, width: d, height: height),
        Rect(x: minX, y: minY, width: width - d, height: height)
      )
    }
  }

  /// A rectangle of `size` (clamped to this one) centred in this rectangle.
  public func centered(_ size: Size) -> Rect {
    let width = min(size.width, self.width)
    let height = min(size.height, self.height)
    return Rect(
      x: minX + (self.width - width) / 2, y: minY + (self.height - height) / 2, width: width, height: height)
  }

  /// `(x, y) w×h`.
  public var description: String { "\(origin) \(size)" }
}
