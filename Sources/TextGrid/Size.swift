/// The size of a grid or terminal, in character cells.
///
/// ```swift
/// let size = Size(width: 80, height: 24)
/// size.fits(in: Size(width: 100, height: 30))  // true
/// ```
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// The number of columns.
  public var width: Int
  /// The number of rows.
  public var height: Int

  /// Creates a size; negative components are clamped to zero.
  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// A size with no cells.
  public static let zero = Size(width: 0, height: 0)

  /// The number of cells, `width × height`.
  public var area: Int { width * height }

  /// Whether this size is at most `other` in both dimensions.
  public func fits(in other: Size) -> Bool {
    width <= other.width && height <= other.height
  }

  /// `80×24`.
  public var description: String { "\(width)×\(height)" }
}
