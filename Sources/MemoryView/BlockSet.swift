/// A set of block positions as a bitmap in a scratch mapping.
///
/// `insert` and `contains` are inlinable: a mark calls them once per
/// reference, from other modules (as calls, they were a tenth of the mark
/// of 10⁶ objects). The count is behind a constant pointer for the same
/// reason as ``ScratchBuffer``'s state.
public final class BlockSet: @unchecked Sendable {
  // @unchecked: filled by its creator, then only read.
  private let bits = ScratchBuffer<UInt64>()
  /// How many blocks the set can hold.
  public let capacity: Int
  /// How many blocks are in the set.
  public var count: Int { inserted.pointee }

  @usableFromInline let inserted: UnsafeMutablePointer<Int>
  @usableFromInline let words64: UnsafeMutablePointer<UInt64>

  public init(count: Int) {
    capacity = count
    bits.fillWithZeros(count: max(1, (count + 63) / 64))
    words64 = bits.base!
    inserted = .allocate(capacity: 1)
    inserted.initialize(to: 0)
  }

  deinit { inserted.deallocate() }

  /// Adds `block`; returns whether it was new.
  @discardableResult
  @inlinable
  public func insert(_ block: Int) -> Bool {
    let mask: UInt64 = 1 << UInt64(block & 63)
    let word = words64[block >> 6]
    guard word & mask == 0 else { return false }
    words64[block >> 6] = word | mask
    inserted.pointee += 1
    return true
  }

  /// The bitmap's words, for a C loop that inserts blocks (then ``noteInserted(_:)``).
  package var mutableWords: UnsafeMutablePointer<UInt64> { words64 }

  /// Counts `added` blocks a C loop inserted through ``mutableWords``.
  package func noteInserted(_ added: Int) { inserted.pointee += added }

  /// Whether `block` is in the set.
  @inlinable @inline(__always)
  public func contains(_ block: Int) -> Bool { words64[block >> 6] & (1 << UInt64(block & 63)) != 0 }

  /// The blocks of `0..<capacity` not in the set, in order, that `isIncluded`
  /// accepts: 64 blocks at a time where all are in it.
  public func missing(where isIncluded: (Int) -> Bool) -> [Int] {
    var found: [Int] = []
    for index in 0..<(capacity + 63) / 64 {
      var absent = ~words64[index]
      while absent != 0 {
        let block = index * 64 + absent.trailingZeroBitCount
        absent &= absent - 1
        if block < capacity, isIncluded(block) { found.append(block) }
      }
    }
    return found
  }
}
