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
struct UnownedObject {
  let pointer: UnsafeMutableRawPointer

  /// Takes an unowned reference to `object`.
  init(_ object: AnyObject) {
    pointer = Unmanaged.passUnretained(object).toOpaque()
    swift_unownedRetain(pointer)
  }

  /// Whether this refers to `object` (compares addresses; never dereferences).
  func refers(to object: AnyObject) -> Bool {
    pointer == Unmanaged.passUnretained(object).toOpaque()
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
