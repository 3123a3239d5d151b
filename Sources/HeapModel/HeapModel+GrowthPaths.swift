import MemoryView

extension HeapModel {
  /// Why one instance of a grown type is kept: the chain of references from
  /// a root to it, named for a person.
  ///
  /// ```text
  /// global auditTrail in AuditTrail → Array<AuditRecord> storage → [249]: AuditRecord
  /// ```
  public struct GrowthPath: Sendable, Hashable {
    /// The instance's address.
    public var address: UInt
    /// The root the path starts from.
    public var root: RootKind
    /// The root, then each block with the reference that reaches it:
    /// `global auditTrail in AuditTrail`, `Array<AuditRecord> storage`, `[249]: AuditRecord`.
    public var steps: [String]
    /// Each block's census name (``steps`` names the root first, then these).
    public var typeNames: [String] = []
    /// For each block, the reference that reaches it (the first's from the root).
    public var hops: [Hop] = []

    /// The reference that reaches one block of the path.
    public struct Hop: Sendable, Hashable {
      /// `[249]`, `records`, `word 3`; empty from the root.
      public var label: String
      /// Whether it is a word no metadata describes.
      public var isConservative: Bool
    }

    /// Whether the path starts where a program keeps things for good: a
    /// global, thread-local storage or a registered root (not a stack, a
    /// register or an allocator's mapping).
    public var isFromLastingRoot: Bool { Self.isLasting(root) }

    /// The steps joined by arrows.
    public var text: String { steps.joined(separator: " → ") }

    static func isLasting(_ root: RootKind) -> Bool {
      switch root {
      case .global, .threadLocal, .registered: true
      default: false
      }
    }
  }

  /// The path from a root to one of the instances of `entry` (an entry of
  /// this model's ``census()``) that are not in `earlier`, or to any of its
  /// instances when `earlier` is nil. The newest-looking instances (highest
  /// addresses) are tried first, up to `candidates`; one held from a lasting
  /// root (``GrowthPath/isFromLastingRoot``) wins.
  ///
  /// ```swift
  /// let before = model1.census(), after = model2.census()
  /// for change in CensusDiff(from: before, to: after).grown {
  ///   guard let entry = after.entry(key: change.key) else { continue }
  ///   print(model2.growthPath(toNewInstanceOf: entry, since: before.entry(key: change.key)?.instances)?.text ?? "")
  /// }
  /// ```
  public func growthPath(
    toNewInstanceOf entry: HeapCensus.Entry, since earlier: InstanceAddresses?, candidates: Int = 4
  ) -> GrowthPath? {
    let fresh = earlier.map { entry.instances.subtracting($0) } ?? Array(entry.instances)
    var fallback: GrowthPath?
    for address in fresh.reversed().prefix(max(1, candidates)) {
      guard let block = block(containing: address), self.block(block).address == address,
        let path = pathToRoot(from: block, accepts: GrowthPath.isLasting).path
      else { continue }
      var found = GrowthPath(address: address, root: path.root.kind, steps: describeSteps(path))
      found.typeNames = path.blocks.map(censusLabel(of:))
      found.hops =
        [GrowthPath.Hop(label: "", isConservative: false)]
        + path.edges.map {
          GrowthPath.Hop(label: label(of: $0).text, isConservative: $0.kind == .conservative)
        }
      if found.isFromLastingRoot { return found }
      if fallback == nil { fallback = found }
    }
    return fallback
  }

  /// A root path named step by step: the root, the first block's type, then
  /// each reference and the type it reaches (`[249]: AuditRecord`).
  public func describeSteps(_ path: RootPath) -> [String] {
    var steps = [describe(path.root), censusLabel(of: path.blocks[0])]
    let labels = path.edges.map { label(of: $0) }
    for (label, next) in zip(labels, path.blocks.dropFirst()) {
      steps.append("\(label.text): \(censusLabel(of: next))")
    }
    return steps
  }

  /// How a path names a block: its type as a census names it, a closure
  /// context as `closure`, plain memory with its size.
  func censusLabel(of block: Int) -> String {
    switch kind(of: block) {
    case .object: return displayName(of: block)
    case .closureContext: return "closure"
    case .mallocBlock: return "malloc block \(snapshot.heap[block].size) B"
    default: return type(of: block).censusName
    }
  }
}
