import Foundation
import StepScripts

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a step-script file for `leaklab run`, saying why when it cannot.
///
/// Only regular files are opened (a FIFO would block forever, a directory or
/// a device is not a script), at most ``maximumSize`` bytes, and the text must
/// be UTF-8: the error names the first line that is not.
///
/// ```swift
/// let text = try ScriptFile.read("Scenarios/Scripts/closure-capture.strong.leaklab")
/// ```
enum ScriptFile {
  /// The largest script read (1 MiB).
  static let maximumSize = 1 << 20

  /// The text of the script at `path`.
  static func read(_ path: String) throws(StepScriptError) -> String {
    func failure(_ reason: String, line: Int = 0) -> StepScriptError {
      StepScriptError(file: path, line: line, message: line > 0 ? reason : "cannot read the file: \(reason)")
    }
    // Opened without blocking (a FIFO with no writer would wait forever), then
    // checked on the descriptor, so what is read is what was checked.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw failure(reason(errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw failure(reason(errno)) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw failure("it is a directory")
    case S_IFIFO: throw failure("it is a FIFO, not a regular file")
    case S_IFSOCK: throw failure("it is a socket, not a regular file")
    case S_IFCHR, S_IFBLK: throw failure("it is a device, not a regular file")
    default: throw failure("it is not a regular file")
    }
    guard status.st_size <= maximumSize else { throw failure("it is larger than 1 MiB") }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(reason(errno))
      }
      if count == 0 { break }
      bytes += chunk[..<count]
      guard bytes.count <= maximumSize else { throw failure("it is larger than 1 MiB") }
    }
    if let line = firstLineThatIsNotUTF8(bytes) { throw failure("not UTF-8 text", line: line) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The 1-based line of the first byte sequence that is not UTF-8, or nil.
  static func firstLineThatIsNotUTF8(_ bytes: [UInt8]) -> Int? {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    var line = 1
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
      case .emptyInput: return nil
      case .error: return line
      }
    }
  }

  /// `no such file`, `permission denied`, … : the system's reason, in lower case.
  static func reason(_ code: Int32) -> String {
    switch code {
    case ENOENT: "no such file"
    case EACCES: "permission denied"
    case ENOTDIR: "a part of the path is not a directory"
    default: String(cString: strerror(code)).lowercased()
    }
  }
}
