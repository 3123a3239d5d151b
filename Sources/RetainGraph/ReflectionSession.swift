import CRemoteMirror

/// One Remote Mirror reflection context and everything cached for it.
///
/// Not thread-safe, like the context itself: only ``ReflectionEngine`` holds
/// a session, behind its lock.
final class ReflectionSession {
  let context: RMContextRef
  let safeReads: Bool
  /// Layouts by metadata address; `nil` entries remember metadata that is not usable.
  var layouts: [UInt: HeapLayout?] = [:]
  /// References inside value types, by type reference.
  var valueSlots: [RMTypeRef: ValueSlots] = [:]
  /// Bytes of the object being described.
  let window: UnsafeMutableRawPointer
  static let windowSize = 4096
  /// Bytes read first from an object: its header and, usually, all its fields.
  static let firstReadSize = 512
  /// Largest object region read at once.
  static let maximumObjectSize = 1 << 16

  init(context: RMContextRef, safeReads: Bool) {
    self.context = context
    self.safeReads = safeReads
    window = .allocate(byteCount: Self.windowSize, alignment: 16)
  }

  deinit {
    window.deallocate()
    swift_reflection_destroyReflectionContext(context)
  }

  // MARK: Reads

  /// Whether `address` can be the start of a heap object.
  static func isPlausibleObject(_ address: UInt) -> Bool {
    address >= 0x1_0000 && address < 0x0000_8000_0000_0000 && address & 7 == 0
  }

  /// The word at `address`, or nil if it cannot be read.
  func word(at address: UInt) -> UInt? {
    var value: UInt = 0
    let copied = withUnsafeMutableBytes(of: &value) { rm_read(address, $0.baseAddress, 8, safeReads) }
    return copied == 8 ? value : nil
  }

  /// The byte at `address`, or nil if it cannot be read.
  func byte(at address: UInt) -> UInt8? {
    var value: UInt8 = 0
    return rm_read(address, &value, 1, safeReads) == 1 ? value : nil
  }

  /// Copies up to `count` bytes at `address` into `buffer`; returns the bytes copied.
  func read(_ address: UInt, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    guard count > 0 else { return 0 }
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
      words.withUnsafeMutableBufferPointer { words in
        rm_readWords(addresses.baseAddress, words.baseAddress, addresses.count, safeReads)
      }
    }
    return zip(addresses, words).map { address, metadata in
      let layout =
        Self.isPlausibleObject(address) && Self.isPlausibleObject(metadata)
        ? layout(metadata: metadata, instance: address) : nil
      let info = ObjectInfo(
        address: address, typeName: layout?.typeName ?? "heap object", kind: layout?.kind ?? .other)
      return (info, layout == nil ? 0 : metadata)
    }
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
        if case .reference(_, let strength, let label) = slot { strengths[label] = strength }
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
