import MemoryView

/// What a search of the process's memory found back from an object.
enum MemoryRootResult {
  /// A path from a true root, not yet named; `metadata` holds the class
  /// instances on it (address → metadata) for naming.
  case path(RetainPath, metadata: [UInt: UInt], isTruncated: Bool, visited: Int)
  /// Nothing holds the object but the caller's own variables (its stack, or
  /// the frames of the Swift task that asked).
  case callerOnly(visited: Int)
  /// No word in memory points at the object, or none that holds it.
  case nothing(visited: Int, isTruncated: Bool)
  /// The memory could not be searched (the reason).
  case unavailable(String)
}

/// Searches this process's memory backwards from an object to a true root,
/// with MemoryView's conservative scan, and keeps only the steps Swift
/// metadata allows (see ``admits(_:_:)``).
///
/// Runs under the reflection engine's lock: it describes Swift objects with
/// the engine's session.
final class MemoryRootSearch {
  let snapshot: ProcessSnapshot
  let graph: ReferenceGraph
  let session: ReflectionSession
  /// Per block: its layout's kind when it is a Swift heap object Remote Mirror knows.
  private var kinds: [Int: ObjectKind?] = [:]
  /// Per first word of a block: the kind it makes the block (nil: not a Swift object).
  private var kindByFirstWord: [UInt: ObjectKind?] = [:]
  /// Per Swift object: the addresses its strong references hold.
  private var strongTargets: [Int: Set<UInt>] = [:]
  /// Per block of C memory: whether its first word points into an image.
  private var typed: [Int: Bool] = [:]
  /// The explainer's own memory: never a step on a path.
  private var excluded = Set<Int>()

  /// A search over `graph`; `own` are addresses of the explainer's own
  /// objects (its engine and session), whose C memory (the Remote Mirror
  /// library's caches, copies of objects read) is left out of every path.
  init(snapshot: ProcessSnapshot, graph: ReferenceGraph, session: ReflectionSession, own: [UInt]) {
    self.snapshot = snapshot
    self.graph = graph
    self.session = session
    var pending = own.compactMap { snapshot.heap.index(containing: $0) }
    while let block = pending.popLast(), excluded.count < 100_000 {
      guard excluded.insert(block).inserted else { continue }
      pending += graph.referencedBlocks(from: block).filter { kind(of: $0) == nil && !excluded.contains($0) }
    }
  }

  /// Takes a snapshot of this process with `registered` roots and builds its reference graph.
  static func scan(registered: [(address: UInt, name: String)]) -> Result<
    (ProcessSnapshot, ReferenceGraph), Failure
  > {
    do {
      let snapshot = try ProcessSnapshot()
      for root in registered { snapshot.registerRoot(block: root.address, name: root.name) }
      return .success((snapshot, ReferenceGraph(snapshot: snapshot)))
    } catch {
      return .failure(Failure(reason: error.description))
    }
  }

  struct Failure: Error {
    var reason: String
  }

  /// The kind of the Swift heap object in block `index`, or nil for memory
  /// that is not one (a C block); decided from the block's first word as the
  /// heap walk read it, once per distinct first word.
  func kind(of index: Int) -> ObjectKind? {
    if let known = kinds[index] { return known }
    let first = snapshot.heap.firstWord(of: index)
    var kind: ObjectKind? = nil
    if ReflectionSession.isPlausibleObject(first) {
      if let known = kindByFirstWord[first] {
        kind = known
      } else {
        kind = session.layout(metadata: first, instance: snapshot.heap[index].address)?.kind
        kindByFirstWord[first] = kind
      }
    }
    kinds[index] = kind
    return kind
  }

  /// Whether the pointers in block `source` into block `target` hold it.
  ///
  /// Into memory without Swift metadata (C, Dispatch, CoreFoundation) any
  /// pointer counts: a conservative step. Into a Swift object, from such
  /// memory, only from a block that starts like an object of a C runtime (its
  /// first word points into an image: a CoreFoundation class, a Dispatch
  /// vtable, a Block's isa), not from a plain buffer, whose stale words are
  /// the usual false step; from another Swift object, only through a strong
  /// reference (weak and unowned ones, numbers that look like addresses,
  /// stale words past a collection's count do not count), unless part of
  /// the source is opaque to the metadata. The explainer's own memory never counts.
  func admits(_ source: Int, _ target: Int) -> Bool {
    guard !excluded.contains(source) else { return false }
    guard let targetKind = kind(of: target) else { return true }
    guard kind(of: source) != nil else { return isTyped(source) }
    let address = snapshot.heap[target].address
    if targetKind == .collectionStorage {
      return session.collectionStorages(of: snapshot.heap[source].address)?.contains(address) ?? true
    }
    return strongTargets(of: source).contains(address)
  }

  /// Whether the first word of C block `index` points into an image.
  private func isTyped(_ index: Int) -> Bool {
    if let known = typed[index] { return known }
    let first = snapshot.memory.word(at: snapshot.heap[index].address) ?? 0
    let result = snapshot.images.image(containing: first) != nil
    typed[index] = result
    return result
  }

  /// The addresses the strong references of Swift object `index` hold; every
  /// address when part of it is opaque.
  private func strongTargets(of index: Int) -> Set<UInt> {
    if let known = strongTargets[index] { return known }
    var edges: [RawEdge] = []
    let address = snapshot.heap[index].address
    let layout = session.edges(of: address, strongOnly: true, into: &edges)
    var targets = Set(edges.map(\.target))
    if layout?.scansConservatively ?? true {
      // Opaque parts: every pointer the block holds may be a reference.
      targets.formUnion(graph.referencedBlocks(from: index).map { snapshot.heap[$0].address })
    }
    strongTargets[index] = targets
    return targets
  }

  /// Searches from block `target` and names the path found.
  func search(from target: Int, deadline: ContinuousClock.Instant?, maxNodes: Int) -> MemoryRootResult {
    let outcome = graph.pathToRoot(from: target, maxNodes: maxNodes, deadline: deadline) { source, target in
      admits(source, target)
    }
    guard let path = outcome.path else {
      return .nothing(visited: outcome.visited, isTruncated: outcome.isTruncated)
    }
    if case .callerStack = path.root.kind { return .callerOnly(visited: outcome.visited) }
    let (retainPath, metadata) = describe(path)
    return .path(retainPath, metadata: metadata, isTruncated: outcome.isTruncated, visited: outcome.visited)
  }
}

extension ReflectionEngine {
  /// Searches this process's memory backwards from the object at `address`
  /// to a true root (see ``MemoryRootSearch``).
  func memoryRootSearch(
    of address: UInt, registered: [(address: UInt, name: String)], limits: SearchLimits
  ) -> MemoryRootResult {
    let scanned: (ProcessSnapshot, ReferenceGraph)
    switch MemoryRootSearch.scan(registered: registered) {
    case .failure(let failure): return .unavailable(failure.reason)
    case .success(let result): scanned = result
    }
    let (snapshot, graph) = scanned
    guard let block = snapshot.heap.index(containing: address), snapshot.heap[block].address == address else {
      return .unavailable("the object is not a malloc block")
    }
    let deadline = limits.timeLimit.map { ContinuousClock().now.advanced(by: $0) }
    let engine = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    return session.withLock { session in
      let own = [engine, UInt(bitPattern: Unmanaged.passUnretained(session).toOpaque())]
      return MemoryRootSearch(snapshot: snapshot, graph: graph, session: session, own: own)
        .search(from: block, deadline: deadline, maxNodes: limits.maxNodes ?? Int.max)
    }
  }
}
