import Synchronization

/// How many instances of a fixture's class are alive: counted in `init` and
/// `deinit`, printed at exit, so a census can be checked against the
/// program's own count.
///
/// ```swift
/// static let live = LiveCount("SessionHandler")
/// init() { Self.live.created() }
/// deinit { Self.live.destroyed() }
/// ```
public final class LiveCount: Sendable {
  public let typeName: String
  private let count = Atomic<Int>(0)

  public init(_ typeName: String) { self.typeName = typeName }

  public func created() { count.add(1, ordering: .relaxed) }
  public func destroyed() { count.subtract(1, ordering: .relaxed) }
  public var value: Int { count.load(ordering: .relaxed) }

  /// `live SessionHandler: 20`
  public var line: String { "live \(typeName): \(value)" }
}
