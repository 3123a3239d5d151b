/// The live heap blocks of a process at one moment, counted by type: what
/// grows in a program that leaks nothing but keeps everything (a cache keyed
/// by request, an observer list nobody trims, an audit trail in a global).
///
/// A view of the ``HeapModel``: each block counts under the type the model
/// gave it — Swift classes, closure contexts (by what they capture), native
/// collection storages (`Array<Node> storage`), tasks; C runtimes' objects by
/// their vtable or isa symbol (`dispatch source`, `icu_76::RuleBasedCollator`);
/// plain malloc memory by size class (`malloc block 33–64 B`). Each entry
/// keeps its instances' addresses, packed (``InstanceAddresses``), so that a
/// later census can tell new instances from old ones (``CensusDiff``).
///
/// ```swift
/// let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
/// let census = model.census()
/// for entry in census.entries.prefix(10) {
///   print(entry.count, entry.bytes, entry.name, entry.module ?? "")
/// }
/// ```
public struct HeapCensus: Sendable, Hashable {
  /// One type's live instances.
  public struct Entry: Sendable, Hashable {
    /// What two censuses match entries on: the kind and the module-qualified
    /// name (`object Feed.FeedService`), or the kind and the census name.
    public var key: String
    /// What the census calls the type: `FeedService`, `Array<Node> storage`,
    /// `closure context (captures FeedService)`, `dispatch source`,
    /// `malloc block 33–64 B`.
    public var name: String
    /// The module-qualified name of a Swift type (`Feed.FeedService`).
    public var qualifiedName: String?
    public var kind: BlockKind
    /// The type's module (`Feed`, `Swift`), for a Swift type.
    public var module: String?
    /// The image that holds the type's metadata or vtable (`Feed`, `libFoundation.so`).
    public var image: String?
    /// Whether the type is the program's own (see ``HeapModel/programModules``).
    public var isProgramType: Bool
    /// Live instances.
    public var count: Int
    /// Their bytes: malloc's usable sizes.
    public var bytes: Int
    /// Their addresses (empty when the census was read from a file without them).
    public var instances: InstanceAddresses

    public init(
      key: String, name: String, qualifiedName: String? = nil, kind: BlockKind, module: String? = nil,
      image: String? = nil, isProgramType: Bool = false, count: Int, bytes: Int,
      instances: InstanceAddresses = InstanceAddresses()
    ) {
      self.key = key
      self.name = name
      self.qualifiedName = qualifiedName
      self.kind = kind
      self.module = module
      self.image = image
      self.isProgramType = isProgramType
      self.count = count
      self.bytes = bytes
      self.instances = instances
    }
  }

  /// How entries are ordered.
  public enum Order: String, Sendable, CaseIterable {
    /// The most bytes first.
    case bytes
    /// The most instances first.
    case count
  }

  /// Every type with a live instance, the most bytes first.
  public var entries: [Entry]
  /// Live malloc blocks, free memory malloc counts as live included.
  public var blocks: Int
  /// Their bytes.
  public var bytes: Int

  public init(entries: [Entry], blocks: Int, bytes: Int) {
    self.entries = entries
    self.blocks = blocks
    self.bytes = bytes
  }

  /// The entries in `order` (ties by name).
  public func sorted(by order: Order) -> [Entry] {
    entries.sorted { left, right in
      switch order {
      case .bytes where left.bytes != right.bytes: return left.bytes > right.bytes
      case .count where left.count != right.count: return left.count > right.count
      default:
        if left.count != right.count { return left.count > right.count }
        return (left.name, left.key) < (right.name, right.key)
      }
    }
  }

  /// The entry whose ``Entry/key`` is `key`.
  public func entry(key: String) -> Entry? { entries.first { $0.key == key } }

  /// The entries of the Swift type `qualifiedName` (`Feed.FeedService`).
  public func entries(qualifiedName: String) -> [Entry] {
    entries.filter { $0.qualifiedName == qualifiedName }
  }

  /// The live instances of the Swift type `qualifiedName`, 0 when none.
  public func count(ofType qualifiedName: String) -> Int {
    entries(qualifiedName: qualifiedName).reduce(0) { $0 + $1.count }
  }
}
