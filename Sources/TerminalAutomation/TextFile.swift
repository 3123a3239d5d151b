#if canImport(Glibc)
  import Glibc
#endif

/// Small files read whole as text, with `open` and `read`.
///
/// Not `String(contentsOfFile:)`: on Linux, Foundation (6.3) allocates 4 KiB
/// for a file whose size reads 0 (as files in /proc do) and does not free
/// them when the file turns out empty. The files polled here are often
/// empty: a status file the shell has created but not written yet, the
/// children list of a process that has none, a log nothing was drawn to
/// yet. Each such read leaked; LeakSanitizer failed a run on one.
///
/// ```swift
/// let status = TextFile.contents(atPath: path)  // nil when it cannot be read
/// ```
public enum TextFile {
  /// The file's bytes as UTF-8 text (invalid bytes repaired), or nil when it
  /// cannot be opened or read (missing, a directory, no permission).
  public static func contents(atPath path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(contentsOf: chunk[..<count])
    }
  }
}
