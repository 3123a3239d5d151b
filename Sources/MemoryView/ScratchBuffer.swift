import CMemoryView
import LeakLabLocking

#if canImport(Glibc)
  import Glibc
#endif

/// A growable array of plain values in memory mapped for it alone, never
/// from malloc.
///
/// Scanning our own process, the scan's tables (block addresses, edges,
/// queues) must not look like references to the blocks they describe: they
/// live in mappings of their own, outside every malloc heap, and every such
/// mapping is listed in ``ScratchMappings`` so that root collection skips it.
/// Growing remaps the pages (no copy); reserving ahead costs nothing until
/// the pages are touched.
///
/// The class is public only so that other modules inline its accessors (a
/// `package` class's inlinable members are still called, measured with
/// Swift 6.3); everything in it is `package`.
public final class ScratchBuffer<Element: BitwiseCopyable> {
  /// Where the elements are, how many, and room for how many.
  @usableFromInline struct State {
    @usableFromInline var base: UnsafeMutablePointer<Element>?
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int
  }

  // The state is behind a constant pointer, not in stored `var`s: the
  // inner loops of the scans use these buffers from other modules millions
  // of times, and there a class's `var` is checked for exclusive access on
  // every use (`@exclusivity(unchecked)` holds only within its own module:
  // the checks were 40 calls in the model builder's step per block). A
  // buffer is only ever used from one thread.
  @usableFromInline let state: UnsafeMutablePointer<State>

  @inlinable package var base: UnsafeMutablePointer<Element>? { state.pointee.base }
  @inlinable package var count: Int { state.pointee.count }
  @inlinable package var capacity: Int { state.pointee.capacity }

  package init(capacity: Int = 0) {
    state = .allocate(capacity: 1)
    state.initialize(to: State(base: nil, count: 0, capacity: 0))
    if capacity > 0 { reserve(capacity) }
  }

  deinit {
    if let base { ScratchMappings.unmap(UnsafeMutableRawPointer(base), bytes: byteCount(capacity)) }
    state.deallocate()
  }

  private func byteCount(_ elements: Int) -> Int {
    (elements * MemoryLayout<Element>.stride + 4095) / 4096 * 4096
  }

  /// Makes room for at least `minimum` elements.
  @usableFromInline package func reserve(_ minimum: Int) {
    guard minimum > capacity else { return }
    let stride = MemoryLayout<Element>.stride
    let grown = byteCount(max(capacity * 2, 4096 / stride, minimum))
    if let base {
      let moved = ScratchMappings.remap(UnsafeMutableRawPointer(base), from: byteCount(capacity), to: grown)
      state.pointee.base = moved.assumingMemoryBound(to: Element.self)
    } else {
      state.pointee.base = ScratchMappings.map(bytes: grown).assumingMemoryBound(to: Element.self)
    }
    state.pointee.capacity = grown / stride
  }

  /// Sets every element to `value`, `count` of them: one element stored,
  /// then copied onto itself, doubling (the generic element-by-element
  /// update cost 10% of a census of 10⁶ objects).
  package func fill(_ value: Element, count: Int) {
    reserve(count)
    state.pointee.count = count
    guard count > 0 else { return }
    let raw = UnsafeMutableRawPointer(base.unsafelyUnwrapped)
    let stride = MemoryLayout<Element>.stride
    raw.storeBytes(of: value, as: Element.self)
    var filled = 1
    while filled < count {
      let copied = min(filled, count - filled)
      memcpy(raw + filled * stride, raw, copied * stride)
      filled += copied
    }
  }

  /// Sets `count` elements to zero. A buffer that never held anything gets
  /// them for free: its pages are fresh from the kernel, zero already, and
  /// stay untouched until written (zeroing pages on first touch was half of
  /// a census of 10⁶ objects).
  package func fillWithZeros(count: Int) {
    let isFresh = base == nil
    reserve(count)
    state.pointee.count = count
    guard !isFresh, count > 0 else { return }
    memset(UnsafeMutableRawPointer(base.unsafelyUnwrapped), 0, count * MemoryLayout<Element>.stride)
  }

  @inlinable
  package func append(_ element: Element) {
    if count == capacity { reserve(count + 1) }
    state.pointee.base.unsafelyUnwrapped[count] = element
    state.pointee.count += 1
  }

  package func removeAll() { state.pointee.count = 0 }

  /// Counts `added` more elements, written past the end by the caller (within the capacity).
  @inlinable
  package func grow(by added: Int) {
    precondition(count + added <= capacity)
    state.pointee.count += added
  }

  /// Keeps the first `newCount` elements.
  package func truncate(to newCount: Int) { state.pointee.count = min(count, max(0, newCount)) }

  @inlinable
  package func removeLast() -> Element {
    state.pointee.count -= 1
    return state.pointee.base.unsafelyUnwrapped[count]
  }

  @inlinable
  subscript(index: Int) -> Element {
    get { base.unsafelyUnwrapped[index] }
    set { base.unsafelyUnwrapped[index] = newValue }
  }

  package var buffer: UnsafeMutableBufferPointer<Element> {
    UnsafeMutableBufferPointer(start: base, count: count)
  }
}

/// The mappings the scan made for itself, process-wide: never roots.
package enum ScratchMappings {
  private static let live = Locked<[Range<UInt>]>([])

  package static func map(bytes: Int) -> UnsafeMutableRawPointer {
    guard let pointer = mv_mapScratch(bytes) else {
      fatalError("MemoryView: cannot map \(bytes) bytes of scratch memory")
    }
    let start = UInt(bitPattern: pointer)
    live.withLock { $0.append(start..<start + UInt(bytes)) }
    return pointer
  }

  static func remap(_ pointer: UnsafeMutableRawPointer, from oldBytes: Int, to newBytes: Int)
    -> UnsafeMutableRawPointer
  {
    guard let moved = mv_remapScratch(pointer, oldBytes, newBytes) else {
      fatalError("MemoryView: cannot grow scratch memory to \(newBytes) bytes")
    }
    let old = UInt(bitPattern: pointer)
    let start = UInt(bitPattern: moved)
    live.withLock { ranges in
      ranges.removeAll { $0.lowerBound == old }
      ranges.append(start..<start + UInt(newBytes))
    }
    return moved
  }

  package static func unmap(_ pointer: UnsafeMutableRawPointer, bytes: Int) {
    let start = UInt(bitPattern: pointer)
    live.withLock { ranges in ranges.removeAll { $0.lowerBound == start } }
    munmap(pointer, bytes)
  }

  /// Whether `range` overlaps memory the scan mapped for itself.
  static func overlaps(_ range: Range<UInt>) -> Bool {
    live.withLock { ranges in ranges.contains { $0.overlaps(range) } }
  }

  /// The scan's own mappings now.
  package static var ranges: [Range<UInt>] { live.withLock { $0 } }
}
