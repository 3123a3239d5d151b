#if canImport(Glibc)
  import Glibc
#endif

/// Small files read whole with `open` and `read`: /proc's, and any other
/// file that may be empty.
///
/// Not Foundation's `String(contentsOfFile:)`: on Linux (Swift 6.3) it reads
/// a file whose size reads 0, as /proc's do, into 4 KiB it allocates, and
/// does not free them when the file turns out empty. Files polled while
/// another process writes them (a status file the shell has created but
/// not written, a /proc children list, the app's label log) are often
/// empty: each such read leaked, and LeakSanitizer failed a run on one.
///
/// ```swift
/// let status = SmallFile.text(path)  // nil when it cannot be opened or read
/// ```
public enum SmallFile {
  /// The contents of `path` (at most `limit` bytes), or nil when it cannot
  /// be opened or read (missing, a directory, no permission).
  public static func read(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while result.count < limit {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { break }
      result.append(contentsOf: chunk[0..<count])
    }
    return result
  }

  /// The contents of `path` as UTF-8 text (invalid bytes repaired), or nil.
  public static func text(_ path: String) -> String? {
    read(path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The names in directory `path`, or nil.
  static func directory(_ path: String) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}
