import CRemoteMirror
import HeapModel
import LeakLabLocking
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// Explains why a live object is still alive: the shortest strong retain
/// cycle through it, and the path from a true root that holds it (a global,
/// a thread's stack or thread-local storage, found by scanning the process's
/// memory backwards from the object, through C memory too), else an honest
/// "held by something not visible here" with its retain count and the reason.
///
/// The explainer reads objects with the Swift runtime's Remote Mirror library,
/// in-process: it sees field names, reference strengths (strong, weak,
/// unowned, unmanaged) and closure captures, and copies memory through
/// `process_vm_readv` so that an object dying during the inspection cannot
/// crash it. Where the library cannot be initialised it falls back to
/// `Mirror`, which cannot tell weak from strong nor see captures; ``method``
/// says which one is in use.
///
/// Roots need not be registered: ``registerRoot(_:name:)`` only gives a root
/// a nicer name (and a place to stop). A step through memory that has no
/// Swift metadata (C, CoreFoundation, Dispatch) is found by its address
/// alone and marked `(conservative)`; see docs/memory-view.md for where such
/// an answer can be wrong.
///
/// The explainer never extends a lifetime: roots are held weakly, results hold
/// no references, and inspected objects are retained only while the naming
/// function runs. It is safe to use from any thread; searches are serialized.
///
/// ```swift
/// let explainer = RetainExplainer(naming: { object in detector.name(of: object) })
/// print(explainer.explain(alertController))
/// // retain cycle: AlertController#1 → actions[0]: AlertAction → handler: closure in
/// // AlertScreen.showAlert() → captures AlertController#1 (strong)
/// print(explainer.explain(observer))
/// // held from root: global Foundation.NotificationCenter._default in libFoundation.so
/// // → (conservative) NotificationCenter → … → block: closure in Feed.start() → captures Feed#1 (strong)
/// ```
public final class RetainExplainer: Sendable {
  /// The inspection method in use.
  public let method: InspectionMethod
  /// The bounds every search respects.
  public let limits: SearchLimits
  /// Whether explanations search the process's memory for a path from a true root.
  public let searchesMemory: Bool
  /// Whether that search also runs when a cycle already explains the object
  /// (to say "also held from root"), or only when nothing else does.
  public let searchesMemoryBesideCycles: Bool
  private let naming: (@Sendable (AnyObject) -> String?)?
  private let engine: ReflectionEngine?
  private let roots = Locked<[Root]>([])

  /// A weakly held root. `@unchecked Sendable`: every stored property is
  /// immutable except the weak reference, which the runtime reads and
  /// clears atomically; the object is only ever loaded to be inspected on the
  /// calling thread, as with the objects passed to ``explain(_:)``.
  ///
  /// It keeps no address of its object (no `ObjectIdentifier`): a root is
  /// compared by loading its weak reference. A registered leak is the very
  /// object the next memory search explains, and a plain address in the
  /// explainer's memory reads as an unsafe pointer that holds it (the app's
  /// live overlay said "held from memory no metadata describes").
  private final class Root: @unchecked Sendable {
    weak var object: AnyObject?
    let name: String?
    /// For a leak (``registerLeak(_:inCycle:)``): whether it leaked in a cycle.
    let leakedInCycle: Bool?

    init(object: AnyObject, name: String?, leakedInCycle: Bool? = nil) {
      self.object = object
      self.name = name
      self.leakedInCycle = leakedInCycle
    }
  }

  /// Creates an explainer.
  ///
  /// - Parameters:
  ///   - preference: the inspection method; `.automatic` is Remote Mirror with
  ///     safe reads, or `Mirror` when the library cannot be initialised.
  ///   - limits: bounds on depth, visited objects and time for each search.
  ///   - naming: names instances in the output (`AlertController#1`); when it
  ///     returns nil, or for objects it is not called on, the plain type name is used.
  ///   - searchesMemory: whether ``explain(_:)`` scans the process's memory
  ///     for a path from a true root (a snapshot of the heap per explanation:
  ///     tens of milliseconds for a heap of tens of MB); off, only cycles and
  ///     registered roots are searched.
  ///   - searchesMemoryBesideCycles: off, the memory search runs only for an
  ///     object no cycle or registered root explains (LeakTesting: a failure
  ///     names the cycle to break, and a large test process's heap takes
  ///     seconds to snapshot in a debug build).
  public init(
    method preference: InspectionPreference = .automatic, limits: SearchLimits = .default,
    naming: (@Sendable (AnyObject) -> String?)? = nil, searchesMemory: Bool = true,
    searchesMemoryBesideCycles: Bool = true
  ) {
    self.limits = limits
    self.searchesMemory = searchesMemory
    self.searchesMemoryBesideCycles = searchesMemoryBesideCycles
    self.naming = naming
    switch preference {
    case .automatic, .only(.remoteMirror):
      engine = ReflectionEngine.safe
    case .only(.remoteMirrorDirectReads):
      engine = ReflectionEngine.direct
    case .only(.mirror):
      engine = nil
    }
    if engine == nil {
      method = .mirror
    } else {
      method = preference == .only(.remoteMirrorDirectReads) ? .remoteMirrorDirectReads : .remoteMirror
    }
  }

  /// Turns speculative reads on or off for every explainer with safe reads
  /// (on by default): describing an object again reads it and what its last
  /// describe read next in one system call. For benchmarks and tests.
  @_spi(Benchmarking) public static func setSpeculativeReads(_ enabled: Bool) {
    ReflectionEngine.safe?.setSpeculativeReads(enabled)
  }

  /// Whether the Remote Mirror library could be initialised in this process.
  public static var isRemoteMirrorAvailable: Bool { ReflectionEngine.safe != nil }

  // MARK: Roots

  /// Registers an object from which root paths are searched: a notification
  /// center, a scheduler's pending work, a run loop's timers, a global.
  ///
  /// Roots are held weakly; a root that dies is dropped. `name` overrides the
  /// naming function for this object in the output.
  public func registerRoot(_ root: AnyObject, name: String? = nil) {
    register(Root(object: root, name: name))
  }

  /// Registers an object already found leaked, for the leaks explained after
  /// it: a leak can hang off another (the screen an alert's handler captures
  /// is kept by the alert's cycle). It is no root of the program's, so a path
  /// from it reads "kept by the leaked cycle of AlertController#1 → …" (or
  /// "kept by the leak AlertController#1 → …" when `inCycle` is false), not
  /// "held from root". Held weakly, as roots are.
  public func registerLeak(_ leak: AnyObject, inCycle: Bool) {
    register(Root(object: leak, name: nil, leakedInCycle: inCycle))
  }

  private func register(_ entry: Root) {
    roots.withLock { roots in
      let object = entry.object
      roots.removeAll { $0.object == nil || $0.object === object }
      roots.append(entry)
    }
  }

  /// Stops searching from `root`.
  public func unregisterRoot(_ root: AnyObject) {
    roots.withLock { roots in roots.removeAll { $0.object == nil || $0.object === root } }
  }

  /// The number of registered roots still alive.
  public var rootCount: Int { roots.withLock { roots in roots.count { $0.object != nil } } }

  /// The live roots, held strongly by the caller for the duration of one search.
  private func liveRoots() -> [(object: AnyObject, name: String?, leakedInCycle: Bool?)] {
    roots.withLock { roots in
      roots.compactMap { root in root.object.map { ($0, root.name, root.leakedInCycle) } }
    }
  }

  // MARK: Inspection

  /// The outgoing references of `object`: its fields (superclasses included),
  /// closure captures, collection elements, optionals and existentials.
  ///
  /// ```swift
  /// for reference in explainer.references(of: screen) {
  ///   print(reference)  // completion: closure in Screen.load() → captures Screen#1 (strong)
  /// }
  /// ```
  public func references(of object: AnyObject) -> [Reference] {
    withExtendedLifetime(object) {
      guard let engine else { return mirrorReferences(of: object) }
      var (references, metadata) = engine.references(of: Self.address(of: object))
      let names = ObjectNaming.names(for: metadata, fixed: rootNamesByAddress(), naming: naming)
      ObjectNaming.apply(names, to: &references)
      return references
    }
  }

  /// Explains why `object` is alive.
  ///
  /// Looks first for the shortest strong cycle through the object, then for
  /// the shortest strong path from a registered root (conservative edges only
  /// when no precise path exists); and, unless `searchesMemory` is off, for a
  /// path from a true root by scanning memory backwards from the object
  /// (``Explanation/rootPath``). Without a cycle, the verdict is the root path
  /// found; with neither, ``Explanation/Verdict/notVisible(retainCount:)``
  /// with the reason.
  public func explain(_ object: AnyObject) -> Explanation {
    explain(object, searchingMemory: searchesMemory)
  }

  /// Explains why `object` is alive, searching the process's memory for a
  /// path from a true root or not (see ``explain(_:)``): without it, only the
  /// cycle and registered roots are searched, in well under a millisecond; an
  /// app asks that first and the fuller answer off its main thread.
  public func explain(_ object: AnyObject, searchingMemory: Bool) -> Explanation {
    let searchesMemory = searchingMemory
    let roots = liveRoots()
    return withExtendedLifetime((object, roots)) {
      guard let engine else {
        return mirrorExplanation(of: object, roots: roots.map { ($0.object, $0.name) })
      }
      let address = Self.address(of: object)
      let report = engine.search(address, roots: roots.map { Self.address(of: $0.object) }, limits: limits)
      // Always with safe reads: the scan meets blocks that are not objects.
      var memory = MemoryRootResult.unavailable("the memory search is off")
      var strongReferences: StrongReferences?
      if searchesMemory, searchesMemoryBesideCycles || report.kind == .none, let safe = ReflectionEngine.safe
      {
        // Beside a cycle, only a stable root is worth saying (a stack slot
        // or a register may hold a stale copy of a leaked object's address):
        // the search looks for those alone.
        (memory, strongReferences) = safe.memoryRootSearch(
          of: address, registered: roots.map { (Self.address(of: $0.object), $0.name ?? "registered root") },
          stableRootsOnly: report.kind == .cycle, limits: limits)
      }
      var metadata = report.metadata
      var word: UInt = 0
      if rm_read(address, &word, 8, true) == 8 { metadata[address] = word }
      var rootPath: RetainPath?
      var reason: String?
      var isTruncated = report.isTruncated
      var visited = report.visited
      switch memory {
      case .path(let path, _, let pathMetadata, let truncated, let count):
        // Beside a cycle (whose search took stable roots alone), not a root
        // that is itself on the cycle (a registered root that leaked with it).
        let rootOnCycle = report.kind == .cycle && Self.objects(on: report).contains(path.start.address)
        if !rootOnCycle {
          rootPath = path
          metadata.merge(pathMetadata) { first, _ in first }
        }
        isTruncated = isTruncated || truncated
        visited += count
      case .callerOnly(let root, let count):
        visited += count
        switch root {
        case .stack(let thread, let name):
          reason =
            "only a word in the stack of thread \(thread)\(name.isEmpty ? "" : " (\(name))") points at it:"
            + " a local variable there, or a stale copy (a conservative scan cannot tell)"
        case .mapping:
          reason = "only a word in memory a runtime mapped for itself points at it (likely a stale copy)"
        case .register(let thread, let name):
          reason =
            "only a register of thread \(thread)\(name.isEmpty ? "" : " (\(name))") points at it:"
            + " a value in use there, or a stale copy"
        case .unboundedStack:
          reason =
            "only a word in a running thread's stack points at it (its frames could not be told from dead ones)"
        default:
          reason = "only the caller's own variables hold it (its stack, or the frames of its task)"
        }
      case .nothing(let count, let truncated):
        visited += count
        isTruncated = isTruncated || truncated
        reason =
          truncated
          ? "the memory search stopped at a limit"
          : "no word in memory holds it (a register of a running thread, or memory the scan cannot read)"
      case .unavailable(let why):
        reason = "the process's memory could not be searched: \(why)"
      case .changed:
        reason = "the process's memory kept changing under the search"
      }
      let names = ObjectNaming.names(for: metadata, fixed: rootNamesByAddress(), naming: naming)
      var start = report.start
      var steps = report.steps
      ObjectNaming.apply(names, to: &start)
      ObjectNaming.apply(names, to: &steps)
      if var path = rootPath {
        ObjectNaming.apply(names, to: &path.start)
        ObjectNaming.apply(names, to: &path.steps)
        rootPath = path
      }
      let typeName = _typeName(type(of: object), qualified: false)
      let subject = ObjectInfo(address: address, typeName: typeName, name: names[address], kind: .object)
      let path = RetainPath(start: start, steps: steps)
      let verdict: Explanation.Verdict =
        switch report.kind {
        case .cycle: .cycle(path)
        case .root: .heldByRoot(path)
        case .none: rootPath.map { .heldByRoot($0) } ?? .notVisible(retainCount: Self.retainCount(of: object))
        }
      var explanation = Explanation(
        object: subject, verdict: verdict, method: method, isTruncated: isTruncated, visitedCount: visited,
        rootPath: rootPath, notVisibleReason: rootPath == nil ? reason : nil,
        strongReferences: strongReferences)
      if case .heldByRoot(let held) = verdict {
        explanation.keptByLeakInCycle =
          roots.first { Self.address(of: $0.object) == held.start.address }?.leakedInCycle
      }
      return explanation
    }
  }

  /// The addresses of the objects a search's path goes through.
  static func objects(on report: SearchReport) -> Set<UInt> {
    Set([report.start.address] + report.steps.map(\.target.address))
  }

  func rootNamesByAddress() -> [UInt: String] {
    roots.withLock { roots in
      var names: [UInt: String] = [:]
      for root in roots {
        if let object = root.object, let name = root.name { names[Self.address(of: object)] = name }
      }
      return names
    }
  }

  func rootNamesByIdentifier() -> [ObjectIdentifier: String] {
    roots.withLock { roots in
      var names: [ObjectIdentifier: String] = [:]
      for root in roots {
        if let object = root.object, let name = root.name { names[ObjectIdentifier(object)] = name }
      }
      return names
    }
  }

  func name(of object: AnyObject) -> String? { naming?(object) }

  static func address(of object: AnyObject) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }

  static func retainCount(of object: AnyObject) -> Int {
    Int(swift_retainCount(Unmanaged.passUnretained(object).toOpaque()))
  }
}
