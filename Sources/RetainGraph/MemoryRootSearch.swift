import MemoryView

/// What a search of the process's memory found back from an object.
enum MemoryRootResult {
  /// A path from a true root, not yet named; `metadata` holds the class
  /// instances on it (address → metadata) for naming.
  case path(RetainPath, root: RootKind, metadata: [UInt: UInt], isTruncated: Bool, visited: Int)
  /// Nothing holds the object but the caller's own variables (its stack, or
  /// the frames of the Swift task that asked), or words the search does not
  /// believe: in memory a runtime mapped for itself, or in a running
  /// thread's dead frames (the root kind says which).
  case callerOnly(RootKind, visited: Int)
  /// No word in memory points at the object, or none that holds it.
  case nothing(visited: Int, isTruncated: Bool)
  /// The memory could not be searched (the reason).
  case unavailable(String)
  /// The memory changed under the search (the path found was no longer
  /// there when it was named): worth another try.
  case changed
}

/// Searches this process's memory backwards from an object to a true root,
/// with MemoryView's conservative scan, and keeps only the steps Swift
/// metadata allows (see ``admits(_:_:)``).
///
/// Runs under the reflection engine's lock: it describes Swift objects with
/// the engine's session.
final class MemoryRootSearch {
  let snapshot: ProcessSnapshot
  let graph: PointerGraph
  let session: ReflectionSession
  /// Per block: its layout's kind when it is a Swift heap object Remote Mirror knows.
  private var kinds: [Int: ObjectKind?] = [:]
  /// Per first word of a block: the kind it makes the block (nil: not a Swift object).
  private var kindByFirstWord: [UInt: ObjectKind?] = [:]
  /// Per Swift object: the addresses it holds (see ``HeldTargets``).
  private var heldTargets: [Int: HeldTargets] = [:]
  /// Per plain block: whether a CoreFoundation object holds it.
  private var storage: [Int: Bool] = [:]
  /// Per block of C memory: whether its first word points into an image.
  private var typed: [Int: Bool] = [:]
  /// The explainer's own memory: never a step on a path.
  private var excluded = Set<Int>()
  /// The first word of every Swift task object (nil when unknown).
  private let taskMetadata: UInt?

  /// A search over `graph`; `own` are addresses of the explainer's own
  /// objects (its engine and session), whose C memory (the Remote Mirror
  /// library's caches, copies of objects read) is left out of every path.
  init(snapshot: ProcessSnapshot, graph: PointerGraph, session: ReflectionSession, own: [UInt]) {
    self.snapshot = snapshot
    self.graph = graph
    self.session = session
    taskMetadata = snapshot.taskMetadata
    // The C memory a few steps from the engine and session that belongs to
    // the Remote Mirror library (its C++ objects, or plain buffers).
    let library = snapshot.images.images.first { $0.name.hasPrefix("libswiftRemoteMirror") }
    // Every engine and session of the explainer (safe and direct reads),
    // found by their classes' metadata, besides the ones named.
    let ownClasses: Set<UInt> = [
      UInt(bitPattern: unsafeBitCast(ReflectionEngine.self as AnyClass, to: UnsafeRawPointer.self)),
      UInt(bitPattern: unsafeBitCast(ReflectionSession.self as AnyClass, to: UnsafeRawPointer.self)),
    ]
    var starts = own.compactMap { snapshot.heap.index(containing: $0) }
    for block in 0..<snapshot.heap.count where ownClasses.contains(snapshot.heap.firstWord(of: block)) {
      starts.append(block)
    }
    var pending = starts.map { (block: $0, depth: 0) }
    while let (block, depth) = pending.popLast() {
      guard excluded.insert(block).inserted, depth < 4 else { continue }
      for next in graph.referencedBlocks(from: block) where kind(of: next) == nil && !excluded.contains(next)
      {
        let first = snapshot.heap.firstWord(of: next)
        guard snapshot.images.image(containing: first) == nil || library?.contains(first) == true else {
          continue
        }
        pending.append((next, depth + 1))
      }
    }
  }

  /// Takes a snapshot of this process with `registered` roots and builds its reference graph.
  ///
  /// The snapshot reads a frozen copy of the process (a stopped fork): its
  /// memory is all of one instant, which a walk of the running heap is not
  /// where other threads keep allocating (libdispatch moves its timer
  /// heap's array many times a second in a live app: the running walk lost
  /// that step). Where no copy can be made, the running process is read.
  static func scan(registered: [(address: UInt, name: String)]) -> Result<
    (ProcessSnapshot, PointerGraph), Failure
  > {
    do {
      let snapshot: ProcessSnapshot
      if let frozen = try? ProcessSnapshot.ofFrozenCopy() {
        snapshot = frozen
      } else {
        snapshot = try ProcessSnapshot()
      }
      for root in registered { snapshot.registerRoot(block: root.address, name: root.name) }
      return .success((snapshot, PointerGraph(snapshot: snapshot)))
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
  /// first word points into an image: a Dispatch vtable, a Block's isa), or
  /// into a CoreFoundation object from the storage of a CoreFoundation
  /// collection; not from any other plain buffer into a Swift object: stale
  /// words there are the usual false step. A CoreFoundation collection's
  /// storage is held by its collection only; from another Swift object, only through a strong
  /// reference (weak and unowned ones, numbers that look like addresses,
  /// stale words past a collection's count do not count), unless part of
  /// the source is opaque to the metadata. The explainer's own memory never counts.
  func admits(_ source: Int, _ target: Int) -> Bool {
    guard !excluded.contains(source) else { return false }
    guard let targetKind = kind(of: target) else {
      // A CoreFoundation collection's storage is held by its collection only.
      guard isCoreFoundationStorage(target) else { return true }
      return kind(of: source) != nil && isCoreFoundationObject(source)
    }
    guard kind(of: source) != nil else {
      // A Swift task holds its closure's context; its other words are bookkeeping and stale storage.
      if let taskMetadata, snapshot.heap.firstWord(of: source) == taskMetadata {
        return targetKind == .closureContext
      }
      return isTyped(source) || (isCoreFoundationObject(target) && isCoreFoundationStorage(source))
    }
    let address = snapshot.heap[target].address
    if heldTargets(of: source).all.contains(address) { return true }
    guard targetKind == .collectionStorage else { return false }
    // A storage is held through a collection field; when the source's
    // fields cannot tell (an enum or existential payload), an object may
    // hold it, another storage (whose empty buckets hold stale words) not.
    guard let storages = session.collectionStorages(of: snapshot.heap[source].address) else {
      return kind(of: source) != .collectionStorage
    }
    return storages.contains(address)
  }

  /// Whether Swift object `index` is a CoreFoundation object behind a Swift
  /// class (`__NSCFType` on Linux): its block is larger than its Swift
  /// layout. CoreFoundation's plain buffers (a collection's storage) hold such objects.
  private func isCoreFoundationObject(_ index: Int) -> Bool {
    guard let layout = session.layout(ofObjectAt: snapshot.heap[index].address), layout.kind == .object else {
      return false
    }
    return Self.isCoreFoundationBridge(layout.typeName) && snapshot.heap[index].size > UInt(layout.size) + 16
  }

  /// Foundation's Swift classes behind CoreFoundation objects on Linux
  /// (`__NSCFType`, `_NSCFArray`, `_NSCFDictionary`, …), whose memory past
  /// the Swift fields is CoreFoundation's.
  static func isCoreFoundationBridge(_ typeName: String) -> Bool {
    typeName.hasPrefix("__NSCF") || typeName.hasPrefix("_NSCF")
  }

  /// Whether plain block `index` is held by a CoreFoundation object (the
  /// storage of a CoreFoundation collection), not by anything else (a
  /// stdio buffer, a cache of freed memory).
  private func isCoreFoundationStorage(_ index: Int) -> Bool {
    if let known = storage[index] { return known }
    let result = graph.referringBlocks(of: index).contains {
      kind(of: $0) != nil && isCoreFoundationObject($0)
    }
    storage[index] = result
    return result
  }

  /// Whether the first word of C block `index` points into an image.
  private func isTyped(_ index: Int) -> Bool {
    if let known = typed[index] { return known }
    // Objects of C runtimes are small; a large block that starts with an
    // image address is a pool or a table (the Swift runtime's metadata
    // pools start so), whose unused tail holds stale words.
    let first = snapshot.heap.firstWord(of: index)
    let result = snapshot.heap[index].size <= 1024 && snapshot.images.image(containing: first) != nil
    typed[index] = result
    return result
  }

  /// The addresses the strong (and unmanaged: retained by hand, as
  /// Foundation's `OperationQueue` does) references of Swift object `index`
  /// hold; every address the block holds when part of it is opaque to the
  /// metadata: a field the library cannot lay out, or a CoreFoundation
  /// object's memory past its Swift class's fields (`__NSCFType`). Other
  /// tail allocations (a `String`'s bytes) are not references.
  private func heldTargets(of index: Int) -> HeldTargets {
    if let known = heldTargets[index] { return known }
    var edges: [RawEdge] = []
    let block = snapshot.heap[index]
    let layout = session.edges(of: block.address, strongOnly: false, into: &edges)
    let holding = edges.filter { $0.strength == .strong || $0.strength == .unmanaged }
    let exact = Set(holding.filter { !$0.isConservative }.map(\.target))
    var targets = Set(holding.map(\.target))
    let opaqueTail =
      layout.map {
        $0.kind == .object && Self.isCoreFoundationBridge($0.typeName) && block.size > UInt($0.size) + 16
      }
      ?? true
    // A collection's storage keeps stale words past its count and in its
    // empty buckets: only its elements count, even when their type is opaque.
    let isStorage = layout?.kind == .collectionStorage
    if !isStorage, layout?.scansConservatively ?? true || opaqueTail {
      targets.formUnion(graph.referencedBlocks(from: index).map { snapshot.heap[$0].address })
    }
    let held = HeldTargets(all: targets, exact: exact)
    heldTargets[index] = held
    return held
  }

  /// What a Swift object holds: `all` the addresses, and the `exact` ones its
  /// metadata's strong references name (fields, captures, elements), not
  /// words of its opaque parts.
  private struct HeldTargets {
    var all: Set<UInt>
    var exact: Set<UInt>
  }

  /// What the step from `source` to `target` costs in the search, or nil
  /// when it does not hold `target` (see ``admits(_:_:)``): 1, or 2 from a
  /// plain C buffer (a block that does not start like an object), 3 from
  /// one over 1 KiB (a table grown ahead of its count): where stale words
  /// are likeliest. A conservative step into a Swift object (a word of C
  /// memory, or of a Swift object's part its metadata cannot lay out) costs 2
  /// more, except into a CoreFoundation object (C data behind a Swift class,
  /// which C memory holds all along a run loop's path): such a word may be a
  /// stale copy of a recycled address (measured: one in an ICU `Locale`'s
  /// name buffer named a test's object), so a chain of references Swift
  /// metadata names, to an equally good root, is believed first.
  func cost(_ source: Int, _ target: Int) -> Int? {
    guard admits(source, target) else { return nil }
    let intoSwift = kind(of: target) != nil && !isCoreFoundationObject(target)
    guard kind(of: source) == nil else {
      guard intoSwift else { return 1 }
      return heldTargets(of: source).exact.contains(snapshot.heap[target].address) ? 1 : 3
    }
    let step = isTyped(source) ? 1 : snapshot.heap[source].size > 1024 ? 3 : 2
    return intoSwift ? step + 2 : step
  }

  /// The roots an explanation believes: globals, thread-local storage,
  /// registers, registered roots. Not: the caller's own variables; other
  /// threads' stacks and anonymous mappings (runtimes' own memory), where a
  /// word can be a live reference or a stale copy of a dead object's address
  /// and, in a running process, often is the latter (measured: stale slots
  /// of idle pool threads made false paths to leaked objects); a running
  /// thread's whole stack. Those are named in the reason instead.
  static func accepts(_ kind: RootKind) -> Bool {
    switch kind {
    case .global, .threadLocal, .register, .registered: true
    case .callerStack, .stack, .mapping, .unboundedStack: false
    }
  }

  /// Searches from block `target` and names the path found.
  func search(from target: Int, deadline: ContinuousClock.Instant?, maxNodes: Int) -> MemoryRootResult {
    let outcome = graph.pathToRoot(
      from: target, maxNodes: maxNodes, deadline: deadline, accepts: Self.accepts
    ) { source, target in cost(source, target) }
    guard let path = outcome.path else {
      return .nothing(visited: outcome.visited, isTruncated: outcome.isTruncated)
    }
    guard Self.accepts(path.root.kind) else {
      // A search cut short may not have reached the true root yet: say so,
      // rather than that only the caller holds the object.
      if outcome.isTruncated { return .nothing(visited: outcome.visited, isTruncated: true) }
      return .callerOnly(path.root.kind, visited: outcome.visited)
    }
    guard let (retainPath, metadata) = describe(path) else { return .changed }
    return .path(
      retainPath, root: path.root.kind, metadata: metadata, isTruncated: outcome.isTruncated,
      visited: outcome.visited)
  }
}

extension ReflectionEngine {
  /// Searches this process's memory backwards from the object at `address`
  /// to a true root (see ``MemoryRootSearch``).
  func memoryRootSearch(
    of address: UInt, registered: [(address: UInt, name: String)], limits: SearchLimits
  ) -> MemoryRootResult {
    // A live process changes while it is read: a walk that missed the object,
    // or a path that was gone when it was named, is tried again.
    var result = MemoryRootResult.changed
    for _ in 0..<3 {
      result = memoryRootSearchOnce(of: address, registered: registered, limits: limits)
      if case .changed = result { continue }
      break
    }
    if case .changed = result { return .unavailable("the memory changed under every search") }
    return result
  }

  private func memoryRootSearchOnce(
    of address: UInt, registered: [(address: UInt, name: String)], limits: SearchLimits
  ) -> MemoryRootResult {
    let scanned: (ProcessSnapshot, PointerGraph)
    switch MemoryRootSearch.scan(registered: registered) {
    case .failure(let failure): return .unavailable(failure.reason)
    case .success(let result): scanned = result
    }
    let (snapshot, graph) = scanned
    guard let block = snapshot.heap.index(containing: address), snapshot.heap[block].address == address else {
      return .changed
    }
    let engine = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    return session.withLock { session in
      // The time limit counts from here: waiting for the shared session's
      // lock (other explanations) must not use it up.
      let deadline = limits.timeLimit.map { ContinuousClock().now.advanced(by: $0) }
      let own = [engine, UInt(bitPattern: Unmanaged.passUnretained(session).toOpaque())]
      return MemoryRootSearch(snapshot: snapshot, graph: graph, session: session, own: own)
        .search(from: block, deadline: deadline, maxNodes: limits.maxNodes ?? Int.max)
    }
  }
}
