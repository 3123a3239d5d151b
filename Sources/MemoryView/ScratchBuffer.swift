import Synchronization

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
final class ScratchBuffer<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>?
  private(set) var count = 0
  private(set) var capacity = 0

  init(capacity: Int = 0) {
    if capacity > 0 { reserve(capacity) }
  }

  deinit {
    if let base {
      ScratchMappings.unmap(UnsafeMutableRawPointer(base), bytes: capacity * MemoryLayout<Element>.stride)
    }
  }

  /// Makes room for at least `minimum` elements.
  func reserve(_ minimum: Int) {
    guard minimum > capacity else { return }
    let stride = MemoryLayout<Element>.stride
    var grown = max(capacity * 2, 4096 / stride, minimum)
    grown = (grown * stride + 4095) / 4096 * 4096 / stride
    let fresh = ScratchMappings.map(bytes: grown * stride).assumingMemoryBound(to: Element.self)
    if let base {
      fresh.update(from: base, count: count)
      ScratchMappings.unmap(UnsafeMutableRawPointer(base), bytes: capacity * stride)
    }
    base = fresh
    capacity = grown
  }

  /// Sets every element to `value`, `count` of them.
  func fill(_ value: Element, count: Int) {
    reserve(count)
    base!.update(repeating: value, count: count)
    self.count = count
  }

  func append(_ element: Element) {
    if count == capacity { reserve(count + 1) }
    base![count] = element
    count += 1
  }

  func removeAll() { count = 0 }

  /// Keeps the first `newCount` elements.
  func truncate(to newCount: Int) { count = min(count, max(0, newCount)) }

  func removeLast() -> Element {
    count -= 1
    return base![count]
  }

  subscript(index: Int) -> Element {
    get { base![index] }
    set { base![index] = newValue }
  }

  var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }
}

/// The mappings the scan made for itself, process-wide: never roots.
enum ScratchMappings {
  private static let live = Mutex<[Range<UInt>]>([])

  static func map(bytes: Int) -> UnsafeMutableRawPointer {
    let length = (bytes + 4095) / 4096 * 4096
    guard let pointer = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      pointer != MAP_FAILED
    else { fatalError("MemoryView: cannot map \(length) bytes of scratch memory") }
    let start = UInt(bitPattern: pointer)
    live.withLock { $0.append(start..<start + UInt(length)) }
    return pointer
  }

  static func unmap(_ pointer: UnsafeMutableRawPointer, bytes: Int) {
    let length = (bytes + 4095) / 4096 * 4096
    let start = UInt(bitPattern: pointer)
    live.withLock { ranges in ranges.removeAll { $0.lowerBound == start } }
    munmap(pointer, length)
  }

  /// Whether `range` overlaps memory the scan mapped for itself.
  static func overlaps(_ range: Range<UInt>) -> Bool {
    live.withLock { ranges in ranges.contains { $0.overlaps(range) } }
  }

  /// The scan's own mappings now.
  static var ranges: [Range<UInt>] { live.withLock { $0 } }
}
