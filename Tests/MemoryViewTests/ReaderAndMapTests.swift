import CMemoryView
import Glibc
import Testing

@testable import MemoryView

@Suite struct ReaderAndMapTests {
  @Test func aReadOfOurOwnMemoryCopiesIt() {
    var value: UInt = 0x1234_5678_9ABC
    let address = withUnsafeMutablePointer(to: &value) { UInt(bitPattern: $0) }
    #expect(ProcessMemory.current.word(at: address) == 0x1234_5678_9ABC)
  }

  @Test func aReadOfUnmappedMemoryFailsInsteadOfFaulting() {
    #expect(ProcessMemory.current.word(at: 0x10) == nil)
    #expect(ProcessMemory.current.word(at: 0x0000_7FFF_FFFF_FFF8 - 4096 * 1000) == nil)
    #expect(ProcessMemory.current.bytes(at: 0x1000, count: 64).isEmpty)
  }

  @Test func absurdSizesAreRejected() {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 8)
    defer { buffer.deallocate() }
    #expect(mv_read(getpid(), 0x10000, buffer.baseAddress, Int(MVMaximumRead) + 1) == 0)
    #expect(ProcessMemory.current.bytes(at: 0x10000, count: Int(MVMaximumRead) + 1).isEmpty)
  }

  @Test func aBatchOfWordsSkipsTheUnreadableOnes() {
    var values: [UInt] = [11, 22, 33]
    let addresses = values.withUnsafeMutableBufferPointer { buffer in
      (0..<3).map { UInt(bitPattern: buffer.baseAddress! + $0) }
    }
    let words = ProcessMemory.current.words(at: [addresses[0], 0x20, addresses[1], 0x30, addresses[2]])
    #expect(words == [11, nil, 22, nil, 33])
    values.removeAll()
  }

  @Test func theMapListsTheHeapTheStackAndOurImages() throws {
    let map = try MemoryMap(pid: getpid())
    #expect(map.regions.contains { $0.path == "[stack]" })
    #expect(map.regions.contains { $0.path.hasSuffix("/libc.so.6") })
    var local = 0
    let address = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
    #expect(map.region(containing: address)?.isWritable == true)
    #expect(map.region(containing: 0x10) == nil)
  }

  @Test func aMapLineWithSpacesInThePathIsParsed() {
    let text = "7f00-7f10 rw-p 00001000 fe:00 42   /tmp/a b (deleted)\n0-1000 r--p 0 00:00 0\ngarbage\n"
    let map = MemoryMap(parsing: Array(text.utf8))
    #expect(map.regions.count == 2)
    #expect(map.regions[1].path == "/tmp/a b")
    #expect(map.regions[1].offset == 0x1000)
    #expect(map.regions[1].isWritable && !map.regions[1].isExecutable)
  }

  @Test func anImagesGlobalIsNamedByItsSymbol() throws {
    let memory = ProcessMemory.current
    let map = try MemoryMap(pid: getpid())
    let images = ImageList(map: map, memory: memory)
    let address = UInt(bitPattern: withUnsafeMutablePointer(to: &mvtGlobalProbe) { $0 })
    let image = try #require(images.image(containing: address))
    #expect(image.containsGlobal(address))
    let symbol = try #require(image.symbol(containing: address, kinds: .object))
    #expect(symbol.demangled.contains("mvtGlobalProbe"))
    #expect(symbol.address <= address && address < symbol.address + max(symbol.size, 1))
  }

  @Test func aFileMappedWholeToReadItsSymbolsIsNotTakenForTheLoadedImage() throws {
    let memory = ProcessMemory.current
    let libcPath = try #require(
      ImageList(map: try MemoryMap(pid: getpid()), memory: memory).image(named: "libc.so.6")
    ).path
    // The symbol reader maps the file once, read-only, somewhere in the address space.
    _ = LoadedImage(
      path: libcPath, base: 0, bias: 0, segments: [], writableRanges: [], threadLocalSize: 0,
      threadLocalAlignment: 0
    ).address(ofSymbol: "malloc")
    let map = try MemoryMap(pid: getpid())
    #expect(map.regions.filter { $0.path == libcPath && $0.offset == 0 }.count >= 2)
    let libc = try #require(ImageList(map: map, memory: memory).image(named: "libc.so.6"))
    let handle = try #require(dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD))
    defer { dlclose(handle) }
    let function = try #require(dlsym(handle, "malloc_usable_size"))
    #expect(libc.contains(UInt(bitPattern: function)))
  }

  @Test func libcIsFoundWithItsWritableData() throws {
    let memory = ProcessMemory.current
    let images = ImageList(map: try MemoryMap(pid: getpid()), memory: memory)
    let libc = try #require(images.images.first { $0.name == "libc.so.6" })
    #expect(!libc.writableRanges.isEmpty)
    #expect(libc.threadLocalSize > 0)
    let handle = try #require(dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD))
    defer { dlclose(handle) }
    let function = try #require(dlsym(handle, "malloc_usable_size"))
    #expect(libc.contains(UInt(bitPattern: function)))
  }
}

nonisolated(unsafe) var mvtGlobalProbe: Int = 7
