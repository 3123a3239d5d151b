/// What changed between two censuses of a process (``HeapCensus``): the
/// types whose live count grew, by how much and how many of their instances
/// are new; the types that shrank. Free memory malloc counts as live
/// (``BlockKind/isFree``) is left out: it is no object.
///
/// An instance is new when its address was not among the type's addresses
/// in the earlier census. So a type that freed 10 instances and made 15
/// grew by 5, with 15 new ones — and one of those is where to look for why
/// they are kept (``HeapModel/growthPath(toNewInstanceOf:since:)``).
///
/// ```swift
/// let diff = CensusDiff(from: before, to: after)
/// for change in diff.grown where change.growth > 10 {
///   print("+\(change.growth) \(change.name)")
/// }
/// ```
public struct CensusDiff: Sendable, Hashable {
  /// One type's change.
  public struct Change: Sendable, Hashable {
    /// The entry's key (``HeapCensus/Entry/key``).
    public var key: String
    public var name: String
    /// The module-qualified name of a Swift type.
    public var qualifiedName: String?
    public var kind: BlockKind
    public var module: String?
    public var image: String?
    public var isProgramType: Bool
    public var oldCount: Int
    public var newCount: Int
    public var oldBytes: Int
    public var newBytes: Int
    /// Instances at addresses the earlier census did not list (nil when it
    /// listed none for the type: a census file written without addresses).
    public var newInstances: Int?

    /// The change in live instances.
    public var growth: Int { newCount - oldCount }
    /// The change in bytes.
    public var byteGrowth: Int { newBytes - oldBytes }
  }

  /// Types with more live instances than before, the largest growth first
  /// (on a tie, the program's own types first).
  public var grown: [Change]
  /// Types with fewer live instances than before (gone ones included), the largest drop first.
  public var shrunk: [Change]
  /// Live blocks and bytes before and after.
  public var oldBlocks: Int
  public var newBlocks: Int
  public var oldBytes: Int
  public var newBytes: Int

  /// Compares `old` with `new`, entry by entry (matched by key).
  ///
  /// - Parameter order: what "largest" means for ``grown`` and ``shrunk``:
  ///   instances (default) or bytes.
  public init(from old: HeapCensus, to new: HeapCensus, order: HeapCensus.Order = .count) {
    var oldByKey: [String: HeapCensus.Entry] = [:]
    for entry in old.entries { oldByKey[entry.key] = entry }
    var grown: [Change] = []
    var shrunk: [Change] = []
    var seen: Set<String> = []
    // Memory malloc counts as live but an allocator keeps for reuse (a
    // thread's tcache, Dispatch's cached continuations) is no object: it
    // comes and goes with the load, and never grew by being kept.
    for entry in new.entries where !entry.kind.isFree {
      seen.insert(entry.key)
      let before = oldByKey[entry.key]
      var change = Change(
        key: entry.key, name: entry.name, qualifiedName: entry.qualifiedName, kind: entry.kind,
        module: entry.module, image: entry.image, isProgramType: entry.isProgramType,
        oldCount: before?.count ?? 0, newCount: entry.count,
        oldBytes: before?.bytes ?? 0, newBytes: entry.bytes, newInstances: nil)
      if change.growth > 0 {
        if let before, before.instances.count == before.count, entry.instances.count == entry.count {
          change.newInstances = entry.instances.countNotIn(before.instances)
        } else if before == nil {
          change.newInstances = entry.count
        }
        grown.append(change)
      } else if change.growth < 0 {
        shrunk.append(change)
      }
    }
    for entry in old.entries where !seen.contains(entry.key) && !entry.kind.isFree {
      shrunk.append(
        Change(
          key: entry.key, name: entry.name, qualifiedName: entry.qualifiedName, kind: entry.kind,
          module: entry.module, image: entry.image, isProgramType: entry.isProgramType, oldCount: entry.count,
          newCount: 0, oldBytes: entry.bytes,
          newBytes: 0, newInstances: nil))
    }
    func larger(_ left: Change, _ right: Change, sign: Int) -> Bool {
      let (a, b) =
        order == .count
        ? (sign * left.growth, sign * right.growth) : (sign * left.byteGrowth, sign * right.byteGrowth)
      if a != b { return a > b }
      // On a tie, the program's own types first: what its developer reads first.
      if left.isProgramType != right.isProgramType { return left.isProgramType }
      return (left.name, left.key) < (right.name, right.key)
    }
    self.grown = grown.sorted { larger($0, $1, sign: 1) }
    self.shrunk = shrunk.sorted { larger($0, $1, sign: -1) }
    oldBlocks = old.blocks
    newBlocks = new.blocks
    oldBytes = old.bytes
    newBytes = new.bytes
  }

  /// The grown types whose growth is past `threshold` instances.
  public func grown(pastThreshold threshold: Int) -> [Change] { grown.filter { $0.growth > threshold } }
}
