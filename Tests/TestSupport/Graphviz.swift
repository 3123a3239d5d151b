import Foundation
import LeakLabLocking

/// Graphviz's `dot`, run on DOT text (the Debian package `graphviz`;
/// `make deps` installs it).
public enum Graphviz {
  /// Graphviz missing, or `dot` rejecting its input.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The SVG `dot -Tsvg` makes of `dot`; throws when Graphviz is missing or rejects the input.
  public static func svg(from dot: String) throws -> String {
    let candidates = ["/usr/bin/dot", "/usr/local/bin/dot"]
    guard let executable = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
      throw Failure(description: "Graphviz is not installed (apt-get install graphviz, or make deps)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // The input is written and the error read while the SVG is read: done
    // one after the other, a large graph fills a pipe and nothing finishes.
    let writer = DispatchGroup()
    let message = Locked(Data())
    DispatchQueue.global().async(group: writer) { [input] in
      input.fileHandleForWriting.write(Data(dot.utf8))
      try? input.fileHandleForWriting.close()
    }
    DispatchQueue.global().async(group: writer) { [errors] in
      let data = errors.fileHandleForReading.readDataToEndOfFile()
      message.withLock { $0 = data }
    }
    let svg = output.fileHandleForReading.readDataToEndOfFile()
    writer.wait()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(
        description:
          "dot -Tsvg failed (\(process.terminationStatus)): \(String(decoding: message.withLock { $0 }, as: UTF8.self))"
      )
    }
    return String(decoding: svg, as: UTF8.self)
  }

  /// `text` as it appears in SVG text.
  public static func xmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
