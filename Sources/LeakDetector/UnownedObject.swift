import CLeakRuntime

/// A reference that neither keeps an object alive nor allocates a side table.
///
/// It holds the object's *unowned* count: deinit runs exactly when it would
/// without us, and only the object's bare memory block waits for ``release()``
/// (the next sweep). Forming a weak reference to a fresh object allocates a
/// side table — about 130 ns measured here — so an expectation that must cost
/// well under 100 ns holds this instead.
///
/// Every value must be released exactly once: by ``load()`` or ``release()``.
///
/// The address is kept inverted (see ``InvertedAddress``): an unowned
/// reference holds no strong count, and a consumed expectation's slot keeps
/// its bytes until its queue's chunk is used up; a plain address there read
/// as an unsafe pointer holding the object (a leaked alert was "held from
/// memory no metadata describes").
struct UnownedObject {
  private let inverted: UInt

  /// Takes an unowned reference to `object`.
  init(_ object: AnyObject) {
    let pointer = Unmanaged.passUnretained(object).toOpaque()
    inverted = ~UInt(bitPattern: pointer)
    swift_unownedRetain(pointer)
  }

  private var pointer: UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(bitPattern: ~inverted).unsafelyUnwrapped
  }

  /// Whether this refers to `object` (compares addresses; never dereferences).
  func refers(to object: AnyObject) -> Bool {
    ~inverted == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }

  /// The object if it is still alive, as a strong reference. Releases the
  /// unowned reference either way.
  func load() -> AnyObject? {
    defer { swift_unownedRelease(pointer) }
    guard swift_tryRetain(pointer) != nil else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
  }

  /// Releases the unowned reference without looking at the object.
  func release() {
    swift_unownedRelease(pointer)
  }
}
