#if canImport(Glibc)
  import Glibc
#endif

extension ProcessSnapshot {
  /// Why this process's own malloc heap cannot be walked, or nil when it can:
  /// the heap walk reads glibc's malloc, and a sanitizer (AddressSanitizer,
  /// ThreadSanitizer) or another allocator linked into the program replaces it.
  ///
  /// Decided once, from where the `malloc` this process calls comes from.
  ///
  /// ```swift
  /// if let reason = ProcessSnapshot.ownHeapUnsupportedReason { print("no memory view:", reason) }
  /// ```
  public static let ownHeapUnsupportedReason: String? = {
    guard let malloc = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc"),
      let map = try? MemoryMap(pid: getpid())
    else { return "this process's malloc cannot be found" }
    let address = UInt(bitPattern: malloc)
    guard let region = map.regions.first(where: { $0.range.contains(address) }) else {
      return "this process's malloc is in no mapped file"
    }
    guard !region.path.contains("/libc.so") else { return nil }
    // LeakLab's allocation recorder (`leaklab leaks --stacks`) records, then calls glibc's malloc.
    guard !region.path.hasSuffix("/libLeakLabAllocationRecorder.so") else { return nil }
    let name = region.path.split(separator: "/").last.map(String.init) ?? region.path
    return "this process's malloc is not glibc's (it comes from \(name): a sanitizer or another allocator)"
  }()
}

extension ProcessSnapshot {
  /// The usable size of the block this process's malloc gave at `address`,
  /// from glibc's chunk header read with `read` (a safe reader), or nil when
  /// malloc is not glibc's or the header does not look like one (the block
  /// was freed and reused: the word before it may then be anything, even a
  /// size no address space holds).
  ///
  /// ```swift
  /// let size = ProcessSnapshot.usableSizeOfOwnBlock(at: address) { ProcessMemory.current.word(at: $0) }
  /// ```
  public static func usableSizeOfOwnBlock(at address: UInt, read: (UInt) -> UInt?) -> Int? {
    guard ownHeapUnsupportedReason == nil, let header = read(address - 8) else { return nil }
    let chunkSize = header & ~MallocLayout.flagBits
    // A mmapped chunk has no next chunk whose first word it may use.
    let overhead = header & MallocLayout.isMapped != 0 ? MallocLayout.headerSize : 8
    guard chunkSize >= MallocLayout.minimumChunk, chunkSize < 1 << 47,
      chunkSize & (MallocLayout.alignment - 1) == 0
    else { return nil }
    return Int(chunkSize - overhead)
  }
}
