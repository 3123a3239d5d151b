/// How much of a C block holds data, where its contents say so: past that
/// lies malloc's slack, whose stale words are no references.
///
/// memcheck knows each block's requested size; a heap walk knows only
/// malloc's usable size. Two shapes of C memory tell their own length.
enum InstanceExtents {
  /// The bytes of a block that hold a C string (`strdup`): at least eight
  /// printable characters from its start, a NUL, and a usable size that
  /// malloc gives to exactly that many bytes. The rest is malloc's slack:
  /// measured, a queue label's slack held a stale pointer to a leaked view.
  /// A struct that begins with an inline name of eight or more characters
  /// and fits the same size would be cut short too (no such case found).
  static func cStringExtent(_ bytes: UnsafeRawPointer, count: Int) -> Int? {
    guard count >= 16 else { return nil }
    var end = 0
    while end < count {
      let byte = bytes.load(fromByteOffset: end, as: UInt8.self)
      if byte == 0 { break }
      guard (0x20...0x7E).contains(byte) || byte == 0x09 || byte >= 0x80 else { return nil }
      end += 1
    }
    guard end >= 8, end < count, usableSize(requested: end + 1) == count else { return nil }
    return end + 1
  }

  /// The bytes of a block that holds a counted array: a 32-bit count `n`,
  /// then `n` words, in a block one word longer than that (the Swift
  /// runtime's concurrent hash maps store their elements so, with their
  /// capacity first). The last word is malloc's slack: measured, a metadata
  /// cache's element array kept a leaked object reachable through it.
  static func countedArrayExtent(_ bytes: UnsafeRawPointer, count: Int) -> Int? {
    guard count >= 24, count % 16 == 8 else { return nil }
    let elements = Int(bytes.loadUnaligned(as: UInt32.self))
    guard elements >= 1, 8 + elements * 8 == count - 8 else { return nil }
    return count - 8
  }

  /// The usable size glibc's malloc gives a request of `requested` bytes on x86_64.
  static func usableSize(requested: Int) -> Int {
    max(32, (requested + 8 + 15) & ~15) - 8
  }
}
