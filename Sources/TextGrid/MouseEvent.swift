/// A mouse event the terminal reported: a click of the first button, or the wheel.
///
/// ```swift
/// switch key {
/// case .mouse(let event) where event.kind == .press: select(rowAt: event.point.y)
/// case .mouse(let event) where event.kind == .wheelDown: scroll(by: 3, at: event.point)
/// default: break
/// }
/// ```
public struct MouseEvent: Hashable, Sendable {
  /// What the mouse did.
  public enum Kind: Hashable, Sendable {
    /// The first (left) button went down.
    case press
    /// The first button came up.
    case release
    /// The wheel turned away from the user (scroll up).
    case wheelUp
    /// The wheel turned towards the user (scroll down).
    case wheelDown
  }

  /// What the mouse did.
  public var kind: Kind
  /// The cell under the pointer.
  public var point: Point

  /// Creates an event.
  public init(_ kind: Kind, at point: Point) {
    self.kind = kind
    self.point = point
  }
}
