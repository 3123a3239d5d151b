import CMemoryView
import LeakLabLocking

#if canImport(Glibc)
  import Glibc
#endif

/// This process's images, and the dynamic linker's load count when they were read.
private let ownImageList = Locked<(list: ImageList?, loads: UInt64)?>(nil)

/// The ELF images loaded in a process, found from its mappings.
public struct ImageList: Sendable {
  /// The images, by base address.
  public var images: [LoadedImage] {
    didSet { segments = Self.segmentTable(images) }
  }
  /// Every loaded segment, sorted by start, with its image's index: for lookups.
  private var segments: [(range: Range<UInt>, image: Int)] = []

  /// Finds the images of the process whose mappings are `map`, reading their
  /// ELF headers from `memory`.
  public init(map: MemoryMap, memory: ProcessMemory) {
    var images: [LoadedImage] = []
    var seen = Set<String>()
    let regions = map.regions
    for (index, region) in regions.enumerated()
    where region.isFile && region.offset == 0 && !seen.contains(region.path) {
      // A loaded image's first mapping is followed by more of the same file
      // (its code); a file mapped whole to be read (a symbol reader's) is not.
      guard index + 1 < regions.count, regions[index + 1].inode == region.inode,
        regions[index + 1].path == region.path, regions[index + 1].offset > 0,
        let image = Self.image(at: region.start, path: region.path, memory: memory)
      else { continue }
      seen.insert(region.path)
      images.append(image)
    }
    self.images = images
    segments = Self.segmentTable(images)
  }

  /// This process's images (nil when its map cannot be read): read once,
  /// and again after the dynamic linker has loaded a library.
  ///
  /// ```swift
  /// let executable = ImageList.ofThisProcess()?.images.first
  /// ```
  public static func ofThisProcess() -> ImageList? {
    let loads = mv_loadCount()
    return ownImageList.withLock { cached in
      if let cached, cached.loads == loads { return cached.list }
      let list = (try? MemoryMap(pid: getpid())).map { ImageList(map: $0, memory: .current) }
      cached = (list, loads)
      return list
    }
  }

  private static func segmentTable(_ images: [LoadedImage]) -> [(range: Range<UInt>, image: Int)] {
    images.enumerated().flatMap { index, image in image.segments.map { ($0, index) } }
      .sorted { $0.range.lowerBound < $1.range.lowerBound }
  }

  /// The image that has a segment containing `address` (a binary search).
  public func image(containing address: UInt) -> LoadedImage? {
    var low = 0
    var high = segments.count
    while low < high {
      let middle = (low + high) / 2
      if segments[middle].range.upperBound <= address { low = middle + 1 } else { high = middle }
    }
    guard low < segments.count, segments[low].range.contains(address) else { return nil }
    return images[segments[low].image]
  }

  /// The first image whose file name is `name` (`libc.so.6`).
  public func image(named name: String) -> LoadedImage? {
    images.first { $0.name == name }
  }

  /// Reads the ELF header and program headers mapped at `base`.
  static func image(at base: UInt, path: String, memory: ProcessMemory) -> LoadedImage? {
    let header = memory.bytes(at: base, count: 64)
    guard header.count == 64, header[0] == 0x7F, header[1] == UInt8(ascii: "E"),
      header[2] == UInt8(ascii: "L"),
      header[3] == UInt8(ascii: "F"), header[4] == 2  // ELFCLASS64
    else { return nil }
    let programHeaders = UInt(load(header, 32, as: UInt64.self))
    let entrySize = Int(load(header, 54, as: UInt16.self))
    let count = Int(load(header, 56, as: UInt16.self))
    guard entrySize == 56, count > 0, count < 256 else { return nil }
    let table = memory.bytes(at: base + programHeaders, count: entrySize * count)
    guard table.count == entrySize * count else { return nil }
    var loads: [(virtual: UInt, size: UInt, writable: Bool)] = []
    var threadLocal: (size: UInt, alignment: UInt) = (0, 0)
    for index in 0..<count {
      let entry = Array(table[index * entrySize..<(index + 1) * entrySize])
      let type = load(entry, 0, as: UInt32.self)
      let flags = load(entry, 4, as: UInt32.self)
      let virtual = UInt(load(entry, 16, as: UInt64.self))
      let memorySize = UInt(load(entry, 40, as: UInt64.self))
      let alignment = UInt(load(entry, 48, as: UInt64.self))
      switch type {
      case 1: loads.append((virtual, memorySize, flags & 2 != 0))  // PT_LOAD, PF_W
      case 7: threadLocal = (memorySize, max(alignment, 1))  // PT_TLS
      default: break
      }
    }
    guard let first = loads.map(\.virtual).min() else { return nil }
    let page = UInt(4096)
    let bias = base &- (first & ~(page - 1))
    let segments = loads.map { (bias &+ $0.virtual)..<(bias &+ $0.virtual &+ $0.size) }
    let writable = loads.filter(\.writable).map { (bias &+ $0.virtual)..<(bias &+ $0.virtual &+ $0.size) }
    return LoadedImage(
      path: path, base: base, bias: bias, segments: segments, writableRanges: writable,
      threadLocalSize: threadLocal.size, threadLocalAlignment: threadLocal.alignment)
  }

  private static func load<T: FixedWidthInteger>(_ bytes: [UInt8], _ offset: Int, as type: T.Type) -> T {
    bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
  }
}
