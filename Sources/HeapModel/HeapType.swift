/// The type of a heap block, as the heap model names it: a Swift type from
/// its metadata, a C runtime's type from its first word's symbol, or plain
/// malloc memory.
public struct HeapType: Sendable, Hashable {
  /// What kind of block it is.
  public var kind: BlockKind
  /// The name a developer writes: `FeedService`, `closure`, `Array storage`,
  /// `Block`, `dispatch source`, `malloc block`.
  public var name: String
  /// What a census calls it: the name, or for a storage its collection and
  /// element types (`Array<Node> storage`).
  public var censusName: String
  /// The module-qualified name (`Feed.FeedService`), for a Swift type.
  public var qualifiedName: String?
  /// The file name of the image that holds the type's metadata or vtable
  /// (`Feed`, `libFoundation.so`); nil for metadata the runtime made (generic
  /// types) and for plain malloc memory.
  public var image: String?
  /// Whether the type belongs to the program's own code: a module of its
  /// executable that is not a library linked into it (see
  /// ``HeapModel/programModules``).
  public var isProgramType: Bool
  /// Whether the name is a C runtime's type (`Block`, `dispatch source`, a
  /// C++ class), not just the symbol a C block's first word points at.
  public var isRuntimeType = false

  /// The module of a Swift type: `Feed` for `Feed.FeedService`.
  public var module: String? {
    guard let qualifiedName, let dot = qualifiedName.firstIndex(of: ".") else { return nil }
    return String(qualifiedName[..<dot])
  }

  /// Plain malloc memory: no metadata, no known first word.
  public static let mallocBlock = HeapType(
    kind: .mallocBlock, name: "malloc block", censusName: "malloc block", qualifiedName: nil, image: nil,
    isProgramType: false)
}
