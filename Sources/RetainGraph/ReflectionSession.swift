import CRemoteMirror
import HeapModel
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// One Remote Mirror reflection context and everything cached for it.
///
/// Not thread-safe, like the context itself: only ``ReflectionEngine`` holds
/// a session, behind its lock.
final class ReflectionSession {
  /// The reflection layer over this process (the heap model's, over our own memory).
  let types: SwiftTypes
  let safeReads: Bool
  var context: RMContextRef { types.context }
  /// Bytes of the object being described.
  /// Copies of objects' bytes are kept where no scan reads them: in scratch
  /// mappings of their own, not malloc (a frozen copy of this process would
  /// otherwise hold a block that starts like the object last described: a
  /// second "instance" with the same references).
  let window: UnsafeMutableRawPointer
  static let windowSize = 4096
  /// Bytes read first from an object with safe reads: its header and, usually,
  /// all its fields (reading past the object's end cannot fault there).
  static let firstReadSize = 512
  /// Bytes read first from an object: with direct reads only its header, so
  /// that no read goes past the end of the object.
  var headerReadSize: Int { safeReads ? Self.firstReadSize : 16 }
  /// Largest object region read at once.
  static let maximumObjectSize = 1 << 16

  // MARK: Speculation (see ReflectionSession+Speculation.swift)

  /// Whether describes read ahead what the last describe of the same object read.
  var speculates: Bool
  /// Per object address, what its last describe read (direct-mapped, bounded).
  var plans: [SpeculationPlan?]
  /// The reads of the describe in progress, in order.
  var recorded: [PlannedRead] = []
  /// Whether reads are being recorded (a describe is in progress).
  var isRecording = false
  /// Bytes of the reads recorded so far.
  var recordedBytes = 0
  /// The metadata word the describe in progress read from its object (0 if none).
  var describedMetadata: UInt = 0
  /// The reads copied ahead for the describe in progress.
  var prefetch = Prefetch()
  /// Where the reads copied ahead land, and the regions of that one system call.
  let prefetchArena: UnsafeMutableRawPointer
  let prefetchRegions: UnsafeMutablePointer<RMRegion>

  init(types: SwiftTypes, safeReads: Bool) {
    self.types = types
    self.safeReads = safeReads
    window = ScratchMappings.map(bytes: Self.windowSize)
    speculates = safeReads
    plans = Array(repeating: nil, count: Self.planSlots)
    prefetchArena = ScratchMappings.map(bytes: Self.prefetchArenaSize)
    prefetchRegions = .allocate(capacity: Self.maximumPlannedReads)
  }

  deinit {
    ScratchMappings.unmap(window, bytes: Self.windowSize)
    ScratchMappings.unmap(prefetchArena, bytes: Self.prefetchArenaSize)
    prefetchRegions.deallocate()
  }

  // MARK: Reads

  /// Whether `address` can be the start of a heap object.
  static func isPlausibleObject(_ address: UInt) -> Bool { SwiftTypes.isPlausibleObject(address) }

  /// The layout for objects with `metadata` (see ``SwiftTypes/layout(metadata:instance:)``).
  func layout(metadata: UInt, instance: UInt) -> HeapLayout? {
    types.layout(metadata: metadata, instance: instance)
  }

  /// The kind of the heap metadata at `metadata`, or nil.
  func heapMetadataKind(_ metadata: UInt) -> UInt? { types.heapMetadataKind(metadata) }

  /// Whether a closure context's captures have one layout for every instance.
  func capturesHaveFixedLayout(contextMetadata metadata: UInt) -> Bool {
    types.capturesHaveFixedLayout(contextMetadata: metadata)
  }

  /// The word at `address`, or nil if it cannot be read.
  func word(at address: UInt) -> UInt? {
    var value: UInt = 0
    let copied = withUnsafeMutableBytes(of: &value) { read(address, into: $0.baseAddress!, count: 8) }
    return copied == 8 ? value : nil
  }

  /// Copies up to `count` bytes at `address` into `buffer`; returns the bytes copied.
  ///
  /// During a describe the read is recorded, and served from the bytes read
  /// ahead when they are exactly what is asked for (see ``trackedRead(_:into:count:)``).
  func read(_ address: UInt, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    guard count > 0 else { return 0 }
    if isRecording { return trackedRead(address, into: buffer, count: count) }
    return rm_read(address, buffer, count, safeReads)
  }

  /// The metadata address of the object at `address`.
  func metadata(of address: UInt) -> UInt? {
    guard Self.isPlausibleObject(address), let metadata = word(at: address),
      Self.isPlausibleObject(metadata)
    else { return nil }
    return metadata
  }

  /// The layout of the object at `address`, if it is a heap object Remote Mirror understands.
  func layout(ofObjectAt address: UInt) -> HeapLayout? {
    guard let metadata = metadata(of: address) else { return nil }
    return layout(metadata: metadata, instance: address)
  }

  /// Describes the node at `address` for the caller.
  func objectInfo(at address: UInt) -> ObjectInfo {
    objectInfos(at: [address])[0].info
  }

  /// Describes the nodes at `addresses`, reading their metadata in one batch;
  /// also returns each one's metadata address (0 if unreadable).
  func objectInfos(at addresses: [UInt]) -> [(info: ObjectInfo, metadata: UInt)] {
    var words = [UInt](repeating: 0, count: addresses.count)
    addresses.withUnsafeBufferPointer { addresses in
      words.withUnsafeMutableBufferPointer { words in readWords(addresses, into: words) }
    }
    return zip(addresses, words).map { address, metadata in objectInfo(at: address, metadata: metadata) }
  }

  /// Describes the node at `address` whose first word is `metadata`; also
  /// returns the metadata address when it was usable (else 0).
  func objectInfo(at address: UInt, metadata: UInt) -> (info: ObjectInfo, metadata: UInt) {
    let layout =
      Self.isPlausibleObject(address) && Self.isPlausibleObject(metadata)
      ? layout(metadata: metadata, instance: address) : nil
    guard let layout else { return (ObjectInfo(address: address, typeName: "heap object", kind: .other), 0) }
    let typeName = layout.kind == .task ? taskName(at: address) : layout.typeName
    return (ObjectInfo(address: address, typeName: typeName, kind: ObjectKind(layout.kind)), metadata)
  }

  /// A task named after the closure it runs, as the heap model names it:
  /// `Task (closure in TickerScreen.start())`.
  func taskName(at address: UInt) -> String {
    let info = swift_reflection_asyncTaskInfo(types.context, UInt64(address))
    guard info.error == nil else { return "Task" }
    var frames: [UInt] = []
    if let backtrace = info.asyncBacktraceFrames {
      frames = (0..<Int(info.asyncBacktraceFrameCount)).map { UInt(backtrace[$0]) }
    }
    frames.append(UInt(info.runJob))
    guard let images = ImageList.ofThisProcess(),
      let closure = ClosureNames.taskEntry(frames: frames, in: images)
    else {
      return "Task"
    }
    return "Task (\(closure))"
  }

  /// Reads the word at each of `addresses` (0 where unreadable), in as few system calls as possible.
  func readWords(_ addresses: UnsafeBufferPointer<UInt>, into words: UnsafeMutableBufferPointer<UInt>) {
    var first = 0
    if isRecording {
      // Words read ahead are served in order, up to the first that was not;
      // the rest are read in one batch.
      for address in addresses { record(address, count: 8) }
      while first < addresses.count, let word = prefetchedWord(at: addresses[first]) {
        words[first] = word
        first += 1
      }
      prefetch.isActive = false
    }
    guard first < addresses.count else { return }
    rm_readWords(
      addresses.baseAddress.map { $0 + first }, words.baseAddress.map { $0 + first }, addresses.count - first,
      safeReads)
  }

  /// Checks that the library numbers layout kinds as this package expects.
  func passesSelfCheck() -> Bool {
    let probe = SelfCheckProbe()
    return withExtendedLifetime(probe) {
      let address = UInt(bitPattern: Unmanaged.passUnretained(probe).toOpaque())
      guard case .fields(let slots)? = layout(ofObjectAt: address)?.shape else { return false }
      var strengths: [String: ReferenceStrength] = [:]
      var functions = 0
      for slot in slots {
        if case .reference(_, let strength, let label) = slot {
          strengths[label] = ReferenceStrength(strength)
        }
        if case .function = slot { functions += 1 }
      }
      return strengths == ["strong": .strong, "weak": .weak, "unowned": .unowned] && functions == 1
    }
  }
}

/// A class whose layout is known, to check the library before trusting it.
private final class SelfCheckProbe {
  var strong: SelfCheckProbe?
  weak var weak: SelfCheckProbe?
  unowned var unowned: AnyObject
  var action: () -> Void = {}
  var number = 0

  init() { unowned = SelfCheckProbeTarget.shared }
}

private final class SelfCheckProbeTarget: Sendable {
  static let shared = SelfCheckProbeTarget()
}

extension ObjectKind {
  /// What the public API calls a block of the heap model's `kind`.
  init(_ kind: BlockKind) {
    switch kind {
    case .object: self = .object
    case .closureContext: self = .closureContext
    case .arrayStorage, .dictionaryStorage, .setStorage: self = .collectionStorage
    case .box, .stringStorage, .task: self = .other
    default: self = .mallocBlock
    }
  }
}

extension ReferenceStrength {
  init(_ strength: SlotStrength) {
    switch strength {
    case .strong: self = .strong
    case .weak: self = .weak
    case .unowned: self = .unowned
    case .unmanaged: self = .unmanaged
    }
  }
}
