/// The addresses of a type's live instances, sorted and packed: what a
/// census keeps so that a later one can tell which instances are new.
///
/// Each address is divided by `unit` (malloc's alignment, 16, when every
/// address allows it) and stored as its distance from the one before, an
/// unsigned LEB128 number: about a byte and a half an instance. The packed
/// bytes hold no word that points anywhere, so a census of our own process
/// kept in memory never reads as a reference to the objects it counted.
///
/// ```swift
/// let addresses = InstanceAddresses(sorted: [0x5000_0010, 0x5000_0040])
/// addresses.count                 // 2
/// Array(addresses)                // [0x5000_0010, 0x5000_0040]
/// addresses.bytes                 // [0x81, 0x80, 0x80, 0x28, 0x03]
/// ```
public struct InstanceAddresses: Sendable, Hashable, Sequence {
  /// The number of addresses.
  public private(set) var count = 0
  /// What every address was divided by (16, or 1 when one is not 16-aligned).
  public private(set) var unit: UInt = 16
  /// The packed distances.
  public private(set) var bytes: [UInt8] = []
  private var last: UInt = 0

  /// No addresses.
  public init() {}

  /// Packs `addresses`, which must be sorted ascending.
  public init(sorted addresses: some Sequence<UInt>) {
    let all = Array(addresses)
    self.init(unit: all.allSatisfy { $0 & 15 == 0 } ? 16 : 1)
    bytes.reserveCapacity(all.count * 2)
    for address in all { _ = append(address) }
  }

  /// No addresses yet, to be packed in units of `unit`.
  init(unit: UInt) { self.unit = unit }

  /// Restores packed addresses, as ``bytes``, ``unit`` and ``count`` give
  /// them; nil when the bytes do not hold `count` numbers.
  public init?(bytes: [UInt8], unit: UInt, count: Int) {
    guard unit == 1 || unit == 16, count >= 0 else { return nil }
    self.bytes = bytes
    self.unit = unit
    var decoded = 0
    var iterator = Iterator(bytes: bytes, unit: unit)
    while let address = iterator.next() {
      decoded += 1
      last = address
    }
    guard decoded == count, iterator.isClean else { return nil }
    self.count = count
  }

  /// Adds `address`, which must not be below the last one added; false
  /// (and nothing added) when it is not a multiple of the unit.
  mutating func append(_ address: UInt) -> Bool {
    guard address % unit == 0 else { return false }
    let value = address / unit
    var delta = value - (count == 0 ? 0 : last / unit)
    while delta >= 0x80 {
      bytes.append(UInt8(delta & 0x7F) | 0x80)
      delta >>= 7
    }
    bytes.append(UInt8(delta))
    last = address
    count += 1
    return true
  }

  public func makeIterator() -> Iterator { Iterator(bytes: bytes, unit: unit) }

  /// Reads the addresses back, in ascending order.
  public struct Iterator: IteratorProtocol {
    let bytes: [UInt8]
    let unit: UInt
    var position = 0
    var value: UInt = 0
    /// False when the bytes ended in the middle of a number.
    private(set) var isClean = true

    init(bytes: [UInt8], unit: UInt) {
      self.bytes = bytes
      self.unit = unit
    }

    public mutating func next() -> UInt? {
      guard position < bytes.count else { return nil }
      var delta: UInt = 0
      var shift: UInt = 0
      while position < bytes.count {
        let byte = bytes[position]
        position += 1
        guard shift < 64 else {
          isClean = false
          return nil
        }
        delta |= UInt(byte & 0x7F) << shift
        shift += 7
        if byte & 0x80 == 0 {
          value &+= delta
          return value &* unit
        }
      }
      isClean = false
      return nil
    }
  }

  /// The addresses in `self` that are not in `earlier`, in ascending order
  /// (one merge of the two sorted lists).
  public func subtracting(_ earlier: InstanceAddresses) -> [UInt] {
    var result: [UInt] = []
    var old = earlier.makeIterator()
    var oldAddress = old.next()
    for address in self {
      while let current = oldAddress, current < address { oldAddress = old.next() }
      if oldAddress != address { result.append(address) }
    }
    return result
  }

  /// How many of `self`'s addresses are not in `earlier` (one merge, nothing kept).
  public func countNotIn(_ earlier: InstanceAddresses) -> Int {
    var result = 0
    var old = earlier.makeIterator()
    var oldAddress = old.next()
    for address in self {
      while let current = oldAddress, current < address { oldAddress = old.next() }
      if oldAddress != address { result += 1 }
    }
    return result
  }
}
