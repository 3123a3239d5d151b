/// An instance of a type that is still reachable at exit, with the path that
/// reaches it from a root (`--reachable TYPE`).
///
/// ```swift
/// for instance in analysis.reachable {
///   print(instance.typeName, instance.path.joined(separator: " → "))
/// }
/// ```
public struct ReachableInstance: Sendable, Hashable {
  /// The instance's type name.
  public var typeName: String
  /// Its address and size.
  public var address: UInt
  public var size: Int
  /// Steps from the root to the instance: the root first (`global
  /// Feed.cache (Feed)`, `stack of thread 4242`), then each block on the way.
  public var path: [String]

  /// Creates a reachable instance.
  public init(typeName: String, address: UInt, size: Int, path: [String]) {
    self.typeName = typeName
    self.address = address
    self.size = size
    self.path = path
  }
}
