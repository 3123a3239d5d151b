#if canImport(Glibc)
  import Glibc
#endif

/// Reads small files under `/proc` whole, without Foundation.
enum ProcFile {
  /// The contents of `path`, or nil when it cannot be opened.
  static func read(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while result.count < limit {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      result.append(contentsOf: chunk[0..<count])
    }
    return result
  }

  /// The contents of `path` as text, or nil.
  static func text(_ path: String) -> String? {
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
