import Foundation
import LeakLint
import SwiftParser

/// `leaklab lint`'s speed on a large tree, beside `swiftc -parse` of the same
/// files (the compiler's own parser: the floor) and swift-syntax's parser alone.
///
/// All three read the same files, one thread each; medians of `repetitions`
/// runs, wall time. The lint reads the tree as one program (index, bodies,
/// rules), as `leaklab lint` does.
enum LintBenchmarks {
  static func run(tree: String, repetitions: Int = 3) {
    let linter = Linter()
    guard let paths = try? linter.swiftFiles(under: [tree]), !paths.isEmpty else {
      print("\nlint: no Swift files under \(tree) (make bench extracts them from /opt/swift-packages)")
      return
    }
    let inputs = paths.compactMap { path in
      FileManager.default.contents(atPath: path).map {
        SourceInput(path: path, text: String(decoding: $0, as: UTF8.self))
      }
    }
    let lines = inputs.reduce(0) { $0 + $1.text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }

    let compiler = measure(repetitions: repetitions) { swiftcParse(paths) }
    let parser = measure(repetitions: repetitions) {
      for input in inputs { _ = Parser.parse(source: input.text) }
    }
    var findings = 0
    let lint = measure(repetitions: repetitions) { findings = linter.lint(files: inputs).count }

    func rate(_ duration: Duration) -> String {
      let seconds = Double(duration.wholeNanoseconds) / 1e9
      return "\(Int((Double(lines) / seconds / 1000).rounded())) k lines/s"
    }
    printTable(
      title:
        "lint: \(inputs.count) files, \(lines) lines under \(tree) (\(findings) findings); median of \(repetitions)",
      header: ["what", "time", "speed", "vs swiftc -parse", "vs its parser alone (goal ≤ 3x)"],
      rows: [
        ["swiftc -frontend -parse (floor)", format(compiler), rate(compiler), "1x", "-"],
        ["swift-syntax Parser.parse only", format(parser), rate(parser), ratio(parser, compiler), "1x"],
        [
          "leaklab lint (parse + rules)", format(lint), rate(lint), ratio(lint, compiler),
          ratio(lint, parser),
        ],
      ])
  }

  /// Runs the compiler's parser over `paths` (`swiftc -frontend -parse`, which
  /// takes files with the same name, unlike the driver), in as few processes as
  /// the argument limit allows. Diagnostics are discarded: only parsing is timed.
  private static func swiftcParse(_ paths: [String]) {
    let swiftc = ProcessInfo.processInfo.environment["SWIFTC"] ?? "/opt/swift/usr/bin/swiftc"
    var chunk: [String] = []
    var size = 0
    func flush() {
      guard !chunk.isEmpty else { return }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: swiftc)
      process.arguments = ["-frontend", "-parse"] + chunk
      process.standardError = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      try? process.run()
      process.waitUntilExit()
      chunk = []
      size = 0
    }
    for path in paths {
      if size + path.utf8.count > 1_000_000 { flush() }
      chunk.append(path)
      size += path.utf8.count + 1
    }
    flush()
  }
}
