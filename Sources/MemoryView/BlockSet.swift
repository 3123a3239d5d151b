/// A set of block positions as a bitmap in a scratch mapping.
public final class BlockSet: @unchecked Sendable {
  // @unchecked: filled by its creator, then only read.
  private let bits = ScratchBuffer<UInt64>()
  /// How many blocks the set can hold.
  public let capacity: Int
  /// How many blocks are in the set.
  public private(set) var count = 0

  init(count: Int) {
    capacity = count
    bits.fill(0, count: (count + 63) / 64)
  }

  /// Adds `block`; returns whether it was new.
  @discardableResult
  func insert(_ block: Int) -> Bool {
    let mask: UInt64 = 1 << UInt64(block & 63)
    let word = bits[block >> 6]
    guard word & mask == 0 else { return false }
    bits[block >> 6] = word | mask
    count += 1
    return true
  }

  /// The bitmap's words (for the C loops).
  var words: UnsafePointer<UInt64>? { UnsafePointer(bits.base) }

  /// Whether `block` is in the set.
  public func contains(_ block: Int) -> Bool { bits[block >> 6] & (1 << UInt64(block & 63)) != 0 }
}
