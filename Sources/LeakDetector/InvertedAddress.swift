/// An object's identity as a table key, its address kept inverted.
///
/// The detector's tables outlive the objects they name (leaked ones
/// included), and a conservative scan — `leaklab leaks`, the memory search
/// — would read a plain address (an `ObjectIdentifier` holds a raw
/// pointer: the likeliest holder an object's strong count admits), or a
/// stale one in an empty bucket, as a reference holding the object. An
/// address can belong to a new object once the old one is gone: keep a
/// weak reference beside the key and compare it.
///
/// ```swift
/// var members: [InvertedAddress: WeakObject] = [:]
/// members[InvertedAddress(object)] = WeakObject(object: object)
/// ```
struct InvertedAddress: Hashable {
  let inverted: UInt

  init(_ object: AnyObject) { inverted = ~UInt(bitPattern: ObjectIdentifier(object)) }
}
