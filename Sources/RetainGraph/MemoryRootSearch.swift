import HeapModel
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
  /// The object was not in the snapshot (it died meanwhile): worth another try.
  case changed
}

/// Searches this process's memory backwards from an object to a true root:
/// the heap model (``HeapModel``) of a frozen copy of the process, whose
/// references Swift metadata names where it can and whose strong counts
/// decide which other words can hold anything.
enum MemoryRootSearch {
  /// The roots an explanation believes: globals, thread-local storage,
  /// registers, registered roots. Not: the caller's own variables; other
  /// threads' stacks and anonymous mappings (runtimes' own memory), where a
  /// word can be a live reference or a stale copy of a dead object's
  /// address; a running thread's whole stack. Those are named in the reason
  /// instead.
  static func accepts(_ kind: RootKind) -> Bool {
    switch kind {
    case .global, .threadLocal, .register, .registered: true
    case .callerStack, .stack, .mapping, .unboundedStack: false
    }
  }

  /// The roots that do not change while a program runs: globals,
  /// thread-local storage, registered roots (not registers or stacks).
  /// Beside a cycle only these are worth saying, so the search looks for
  /// them alone: a register of a thread at work (a run loop's, Dispatch's)
  /// was a cheaper path than the global one, and the answer was then no
  /// root at all (2 runs in 30 under load, 0 in 40 after).
  static func isStable(_ kind: RootKind) -> Bool {
    switch kind {
    case .global, .threadLocal, .registered: true
    case .register, .callerStack, .stack, .mapping, .unboundedStack: false
    }
  }

  /// Takes a snapshot of this process with `registered` roots and builds its
  /// heap model.
  ///
  /// The snapshot reads a frozen copy of the process (a stopped fork): its
  /// memory is all of one instant, which a walk of the running heap is not
  /// where other threads keep allocating (libdispatch moves its timer
  /// heap's array many times a second in a live app: the running walk lost
  /// that step). Where no copy can be made, the running process is read.
  static func model(registered: [(address: UInt, name: String)]) -> Result<HeapModel, Failure> {
    do {
      let snapshot: ProcessSnapshot
      if let frozen = ReflectionEngine.withContextsReleased({ try? ProcessSnapshot.ofFrozenCopy() }) {
        snapshot = frozen
      } else {
        snapshot = try ProcessSnapshot()
      }
      for root in registered { snapshot.registerRoot(block: root.address, name: root.name) }
      return .success(try HeapModel(snapshot: snapshot))
    } catch let error as ProcessSnapshot.Failure {
      return .failure(Failure(reason: error.description))
    } catch let error as HeapModelError {
      return .failure(Failure(reason: error.description))
    } catch {
      return .failure(Failure(reason: "\(error)"))
    }
  }

  struct Failure: Error {
    var reason: String
  }

  /// Searches `model` from the object at `address` and names the path
  /// found; says where the object's strong references are.
  /// With `stableRootsOnly`, only a path from a root ``isStable(_:)`` takes is an answer.
  static func search(
    _ model: HeapModel, from address: UInt, own: [UInt], stableRootsOnly: Bool = false,
    deadline: ContinuousClock.Instant?, maxNodes: Int
  ) -> (MemoryRootResult, StrongReferences?) {
    guard let block = model.block(containing: address), model.block(block).address == address else {
      return (.changed, nil)
    }
    let excluded = ownMemory(in: model, own: own)
    let accepted = stableRootsOnly ? isStable : accepts
    let result = search(
      model, from: block, excluding: excluded, accepts: accepted, deadline: deadline, maxNodes: maxNodes)
    return (result, model.strongReferences(of: block, excluding: excluded))
  }

  private static func search(
    _ model: HeapModel, from block: Int, excluding excluded: Set<Int>, accepts: (RootKind) -> Bool,
    deadline: ContinuousClock.Instant?, maxNodes: Int
  ) -> MemoryRootResult {
    let outcome = model.pathToRoot(
      from: block, accepts: accepts, excluded: excluded, maxNodes: maxNodes, deadline: deadline)
    guard let path = outcome.path else {
      return .nothing(visited: outcome.visited, isTruncated: outcome.isTruncated)
    }
    guard accepts(path.root.kind) else {
      // A search cut short may not have reached the true root yet: say so,
      // rather than that only the caller holds the object.
      if outcome.isTruncated { return .nothing(visited: outcome.visited, isTruncated: true) }
      return .callerOnly(path.root.kind, visited: outcome.visited)
    }
    let (retainPath, metadata) = describe(path, in: model)
    return .path(
      retainPath, root: path.root.kind, metadata: metadata, isTruncated: outcome.isTruncated,
      visited: outcome.visited)
  }

  /// The explainer's own memory, never a step on a path nor a holder of a
  /// count: its engines and sessions (found by their classes) and the
  /// buffers they point at, which hold copies of the program's words and are
  /// never followed. The engines' Remote Mirror contexts are freed while a
  /// copy is forked (``ReflectionEngine/withContextsReleased(_:)``), so a
  /// copy holds none of their memory. A heap model alive meanwhile (another
  /// thread's) keeps its context: that is taken in from the context's C++
  /// object, with the plain buffers near it (the library's type caches keep
  /// vectors whose stale words were seen pointing at the object explained).
  /// A plain buffer a global of another image points at is the program's,
  /// whatever stale word of the library's also points at it (a test's C
  /// buffer, named by its global, was taken for the library's and its word
  /// left out of the object's count: "0 of 0 strong references found", 1
  /// fresh-clone run in 6).
  static func ownMemory(in model: HeapModel, own: [UInt]) -> Set<Int> {
    let snapshot = model.snapshot
    let library = snapshot.images.images.first { $0.name.hasPrefix("libswiftRemoteMirror") }
    let typesClass = UInt(bitPattern: unsafeBitCast(SwiftTypes.self as AnyClass, to: UnsafeRawPointer.self))
    let ownClasses: Set<UInt> = [
      UInt(bitPattern: unsafeBitCast(ReflectionEngine.self as AnyClass, to: UnsafeRawPointer.self)),
      UInt(bitPattern: unsafeBitCast(ReflectionSession.self as AnyClass, to: UnsafeRawPointer.self)),
      typesClass,
    ]
    var starts = own.compactMap { model.block(containing: $0) }
    // Objects only: a larger block that starts with one of the classes is a
    // copy of an object's words (the model types it as plain memory), and
    // the words it points at are the program's.
    for block in 0..<model.blockCount
    where ownClasses.contains(snapshot.heap.firstWord(of: block)) && model.kind(of: block) == .object {
      starts.append(block)
    }
    var excluded = Set(starts)
    var pending: [(block: Int, plain: Int)] = []
    for start in starts {
      let isTypes = snapshot.heap.firstWord(of: start) == typesClass
      for edge in model.edges(from: start) where !model.kind(of: edge.target).isSwiftObject {
        excluded.insert(edge.target)
        // A layer's context (a model's; an engine's is freed in a copy).
        if isTypes || library?.contains(snapshot.heap.firstWord(of: edge.target)) == true {
          pending.append((edge.target, 0))
        }
      }
    }
    // From a context: plain buffers (no vtable) are followed at most
    // `plainHops` in a row: past that they are as likely the program's
    // (libdispatch's chains of continuations) as the library's. A chain of
    // plain buffers linked through their first word from one of them (the
    // nodes of the library's hash tables: next, then the key's
    // `std::string`, whose spare words are never written) is the library's
    // however long: measured, 9,947 such 72-byte nodes in a test process,
    // and a stale word of one of them on the path a survivor was "held" by.
    let plainHops = 3
    var visited = Set<Int>()
    while let (block, plain) = pending.popLast() {
      guard visited.insert(block).inserted else { continue }
      excluded.insert(block)
      let isPlain = plain > 0
      for edge in model.edges(from: block) where !model.kind(of: edge.target).isSwiftObject {
        let first = snapshot.heap.firstWord(of: edge.target)
        if library?.contains(first) == true {
          pending.append((edge.target, 0))
        } else if snapshot.images.image(containing: first) == nil,
          !isHeldByAGlobal(edge.target, in: model, besides: library?.name)
        {
          let hops = isPlain && edge.word == 0 ? plain : plain + 1
          if hops <= plainHops { pending.append((edge.target, hops)) }
        }
      }
    }
    return excluded
  }

  /// Whether a global of an image other than `library` points at the start of `block`.
  private static func isHeldByAGlobal(_ block: Int, in model: HeapModel, besides library: String?) -> Bool {
    model.roots(of: block).contains { root in
      guard case .global(let image) = root.kind, !root.isInterior else { return false }
      return image != library
    }
  }

  /// Names a path: the root by the global's symbol and image, or the thread;
  /// each block by its type (Swift objects with their fields, captures and
  /// strengths; other blocks as `malloc block, 96 B`). A step into a
  /// collection's storage and the step on from it read as one
  /// (`items[3]: Record`).
  static func describe(_ path: HeapModel.RootPath, in model: HeapModel) -> (
    RetainPath, metadata: [UInt: UInt]
  ) {
    var metadata: [UInt: UInt] = [:]
    func info(_ block: Int) -> ObjectInfo {
      let address = model.block(block).address
      let kind = model.kind(of: block)
      guard kind.isSwiftObject else {
        let heapBlock = model.block(block)
        let type = model.type(of: block)
        let size = "malloc block, \(heapBlock.size) B"
        // `Block (malloc block, 56 B)` for a runtime's type; `malloc block,
        // 40 B (symbol)` for memory that only starts with a symbol's address.
        guard type.kind != .mallocBlock else {
          return ObjectInfo(address: address, typeName: "malloc block", name: size, kind: .mallocBlock)
        }
        guard type.isRuntimeType else {
          return ObjectInfo(
            address: address, typeName: "malloc block", name: "\(size) (\(type.name))", kind: .mallocBlock)
        }
        return ObjectInfo(
          address: address, typeName: type.name, name: "\(type.name) (\(size))", kind: .mallocBlock)
      }
      let typeName = kind == .closureContext ? "closure" : model.displayName(of: block)
      // A program's objects get the caller's names (`Timer#1`); CoreFoundation's
      // objects behind Foundation's bridge classes keep their CF type's name.
      if kind == .object, !SwiftTypes.isCoreFoundationBridge(model.type(of: block).name) {
        metadata[address] = model.snapshot.heap.firstWord(of: block)
      }
      return ObjectInfo(address: address, typeName: typeName, kind: ObjectKind(kind))
    }
    let first = path.blocks[0]
    var start: ObjectInfo
    var steps: [Reference] = []
    if path.root.wordAddress == 0, case .registered = path.root.kind {
      start = info(first)
    } else {
      start = ObjectInfo(
        address: path.root.wordAddress, typeName: "root", name: model.describe(path.root), kind: .root)
      steps.append(Reference(label: "", strength: .strong, isConservative: true, target: info(first)))
    }
    var position = 0
    while position < path.edges.count {
      var edge = path.edges[position]
      var label = model.label(of: edge)
      var text = label.text
      // Through a collection's storage: one step, labelled with both.
      while edge.kind == .strong, model.kind(of: edge.target).isCollectionStorage,
        position + 1 < path.edges.count,
        path.edges[position + 1].kind == .strong
      {
        position += 1
        edge = path.edges[position]
        label = model.label(of: edge)
        text = Slot.join(text, label.text)
      }
      steps.append(
        Reference(
          label: text, strength: edge.kind == .unowned ? .unowned : .strong,
          isConservative: edge.kind == .conservative || edge.kind == .unmanaged, closure: label.closure,
          target: info(edge.target)))
      position += 1
    }
    return (RetainPath(start: start, steps: steps), metadata)
  }
}

extension ReflectionEngine {
  /// Searches this process's memory backwards from the object at `address`
  /// to a true root (see ``MemoryRootSearch``).
  func memoryRootSearch(
    of address: UInt, registered: [(address: UInt, name: String)], stableRootsOnly: Bool = false,
    limits: SearchLimits
  ) -> (MemoryRootResult, StrongReferences?) {
    let model: HeapModel
    switch MemoryRootSearch.model(registered: registered) {
    case .failure(let failure): return (.unavailable(failure.reason), nil)
    case .success(let built): model = built
    }
    let engine = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    let own = session.withLock { session in
      [
        engine, UInt(bitPattern: Unmanaged.passUnretained(session).toOpaque()),
        UInt(bitPattern: Unmanaged.passUnretained(session.types).toOpaque()),
      ]
    }
    let deadline = limits.timeLimit.map { ContinuousClock().now.advanced(by: $0) }
    return MemoryRootSearch.search(
      model, from: address, own: own, stableRootsOnly: stableRootsOnly, deadline: deadline,
      maxNodes: limits.maxNodes ?? Int.max)
  }
}
