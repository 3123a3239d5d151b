/// A cell position: column `x` from the left, row `y` from the top, both from zero.
///
/// ```swift
/// let origin = Point(x: 0, y: 0)
/// let below = origin.offsetBy(dx: 2, dy: 1)  // (2, 1)
/// ```
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// The column, counted from zero at the left edge.
  public var x: Int
  /// The row, counted from zero at the top edge.
  public var y: Int

  /// Creates a point at column `x`, row `y`.
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }

  /// The top-left cell.
  public static let zero = Point(x: 0, y: 0)

  /// This point moved by `dx` columns and `dy` rows.
  public func offsetBy(dx: Int = 0, dy: Int = 0) -> Point {
    Point(x: x + dx, y: y + dy)
  }

  /// `(x, y)`.
  public var description: String { "(\(x), \(y))" }
}
