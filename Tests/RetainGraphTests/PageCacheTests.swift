import CRemoteMirror
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The page cache through which a reflection context reads another process
/// (`rm_readCached`), read here from this process: the bytes asked for,
/// across page ends, as they were when first read, and never more than
/// `process_vm_readv` gives.
@Suite struct PageCacheTests {
  /// A zeroed cache for this process's memory.
  final class Cache {
    let bytes: UnsafeMutableRawPointer
    init() {
      bytes = UnsafeMutableRawPointer.allocate(byteCount: rm_pageCacheSize(), alignment: 16)
      rm_initPageCache(bytes, getpid())
    }
    deinit { bytes.deallocate() }

    func read(_ address: UnsafeRawPointer, count: Int) -> [UInt8] {
      var buffer = [UInt8](repeating: 0, count: count)
      let copied = buffer.withUnsafeMutableBytes {
        rm_readCached(bytes, UInt(bitPattern: address), $0.baseAddress, count)
      }
      return Array(buffer.prefix(copied))
    }
  }

  /// Three pages of this process, each byte its offset's low byte.
  static func pages(_ count: Int) -> UnsafeMutableRawPointer {
    let memory = mmap(nil, count * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
    for offset in 0..<count * 4096 {
      memory.storeBytes(of: UInt8(truncatingIfNeeded: offset), toByteOffset: offset, as: UInt8.self)
    }
    return memory
  }

  @Test func readsAcrossPageEndsGiveTheBytesAskedFor() {
    let memory = Self.pages(3)
    defer { munmap(memory, 3 * 4096) }
    let cache = Cache()
    for (offset, count) in [(0, 8), (4090, 12), (100, 3 * 4096 - 100), (8191, 1), (4096, 4096)] {
      let expected = (offset..<offset + count).map { UInt8(truncatingIfNeeded: $0) }
      #expect(cache.read(memory + offset, count: count) == expected, "offset \(offset), \(count) bytes")
    }
  }

  @Test func aPageOnceReadIsServedAsItWasThen() {
    let memory = Self.pages(1)
    defer { munmap(memory, 4096) }
    let cache = Cache()
    #expect(cache.read(memory + 16, count: 4) == [16, 17, 18, 19])
    memory.storeBytes(of: 0xFF, toByteOffset: 17, as: UInt8.self)
    // The context reads one instant of a stopped process: the same page again.
    #expect(cache.read(memory + 16, count: 4) == [16, 17, 18, 19])
    #expect(Cache().read(memory + 16, count: 4) == [16, 0xFF, 18, 19])
  }

  @Test func aReadIntoAnUnmappedPageStopsWhereTheMemoryEnds() {
    let memory = Self.pages(2)
    munmap(memory + 4096, 4096)
    defer { munmap(memory, 4096) }
    let cache = Cache()
    let read = cache.read(memory + 4000, count: 200)
    #expect(read == (4000..<4096).map { UInt8(truncatingIfNeeded: $0) })
    #expect(cache.read(memory + 4096, count: 8).isEmpty)
  }
}
