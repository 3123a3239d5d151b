#if canImport(Glibc)
  import Glibc
#endif

/// One mapping of a process, as `/proc/PID/maps` lists it.
public struct MemoryRegion: Sendable, Hashable, CustomStringConvertible {
  /// The addresses mapped.
  public var range: Range<UInt>
  public var isReadable: Bool
  public var isWritable: Bool
  public var isExecutable: Bool
  /// Private (copy-on-write) rather than shared.
  public var isPrivate: Bool
  /// The offset in the mapped file.
  public var offset: UInt
  /// The file's inode, 0 for anonymous memory.
  public var inode: UInt
  /// The file mapped, or a pseudo name (`[heap]`, `[stack]`, `[vdso]`), or "" for anonymous memory.
  public var path: String

  public var start: UInt { range.lowerBound }
  public var end: UInt { range.upperBound }
  /// Memory that belongs to no file and has no pseudo name.
  public var isAnonymous: Bool { inode == 0 && path.isEmpty }
  /// A file mapping (an image or data file), not a pseudo mapping.
  public var isFile: Bool { inode != 0 && path.hasPrefix("/") }

  public var description: String {
    let permissions =
      (isReadable ? "r" : "-") + (isWritable ? "w" : "-") + (isExecutable ? "x" : "-")
      + (isPrivate ? "p" : "s")
    return "\(hex(start))-\(hex(end)) \(permissions) \(path)"
  }
}

/// The mappings of a process, sorted by address.
///
/// ```swift
/// let map = try MemoryMap(pid: getpid())
/// print(map.region(containing: address)?.path ?? "unmapped")
/// ```
public struct MemoryMap: Sendable {
  /// Every mapping, by address.
  public var regions: [MemoryRegion]

  /// Why a map could not be read.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Reads `/proc/PID/maps`.
  public init(pid: pid_t) throws(Failure) {
    guard let bytes = SmallFile.read("/proc/\(pid)/maps") else {
      throw Failure(description: "cannot read /proc/\(pid)/maps: \(String(cString: strerror(errno)))")
    }
    self.init(parsing: bytes)
  }

  /// Parses the text of a maps file.
  public init(parsing text: some Collection<UInt8>) {
    var regions: [MemoryRegion] = []
    for line in text.split(separator: UInt8(ascii: "\n")) {
      if let region = Self.parse(Array(line)) { regions.append(region) }
    }
    self.regions = regions.sorted { $0.start < $1.start }
  }

  /// Creates a map from regions.
  public init(regions: [MemoryRegion]) { self.regions = regions.sorted { $0.start < $1.start } }

  /// The mapping that contains `address`.
  public func region(containing address: UInt) -> MemoryRegion? {
    index(containing: address).map { regions[$0] }
  }

  /// The index of the mapping that contains `address`.
  public func index(containing address: UInt) -> Int? {
    var low = 0
    var high = regions.count
    while low < high {
      let middle = (low + high) / 2
      if regions[middle].end <= address { low = middle + 1 } else { high = middle }
    }
    return low < regions.count && regions[low].range.contains(address) ? low : nil
  }

  private static func parse(_ line: [UInt8]) -> MemoryRegion? {
    var fields: [ArraySlice<UInt8>] = []
    var index = 0
    while index < line.count, fields.count < 5 {
      while index < line.count, line[index] == UInt8(ascii: " ") { index += 1 }
      let start = index
      while index < line.count, line[index] != UInt8(ascii: " ") { index += 1 }
      if start < index { fields.append(line[start..<index]) }
    }
    guard fields.count == 5 else { return nil }
    while index < line.count, line[index] == UInt8(ascii: " ") { index += 1 }
    var path = String(decoding: line[index...], as: UTF8.self)
    if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
    let bounds = fields[0].split(separator: UInt8(ascii: "-"))
    let permissions = Array(fields[1])
    guard bounds.count == 2, permissions.count == 4, let start = hexValue(bounds[0]),
      let end = hexValue(bounds[1]), start < end, let offset = hexValue(fields[2]),
      let inode = UInt(String(decoding: fields[4], as: UTF8.self))
    else { return nil }
    return MemoryRegion(
      range: start..<end, isReadable: permissions[0] == UInt8(ascii: "r"),
      isWritable: permissions[1] == UInt8(ascii: "w"), isExecutable: permissions[2] == UInt8(ascii: "x"),
      isPrivate: permissions[3] == UInt8(ascii: "p"), offset: offset, inode: inode, path: path)
  }

  private static func hexValue(_ digits: ArraySlice<UInt8>) -> UInt? {
    UInt(String(decoding: digits, as: UTF8.self), radix: 16)
  }
}

/// `0x7f12…` for an address.
func hex(_ value: UInt) -> String { "0x" + String(value, radix: 16) }
