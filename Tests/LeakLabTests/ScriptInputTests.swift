import Foundation
import LeakLabTestSupport
import Testing

/// Hostile and unusual step-script input through `leaklab run`: each case is a
/// one-line error with a reason and status 2, or runs as intended, never a
/// crash, a hang, or raw control characters on the user's terminal.
@Suite struct ScriptInputTests {
  /// The test's files, removed when it ends.
  let folder = TemporaryFolder("leaklab-input")

  /// A fresh directory for one file (a test may write several of one name).
  func directory() throws -> URL {
    let directory = folder.file(String(UUID().uuidString.prefix(8)))
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  func file(_ bytes: [UInt8], name: String = "s.leaklab") throws -> String {
    let path = try directory().appendingPathComponent(name).path
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    return path
  }

  func file(_ text: String, name: String = "s.leaklab") throws -> String {
    try file(Array(text.utf8), name: name)
  }

  @Test func windowsLineEndingsAreLineEndings() throws {
    let path = try file(
      "select closure-capture\r\nmode strong\r\nopen\r\nclose\r\nwait 1s\r\nexpect clean\r\n")
    let run = try LeakLabBinary.run(["run", path], timeout: .seconds(20))
    #expect(run.status == 0)
    #expect(run.output.contains("    5  wait 1s"))
    #expect(run.output.hasSuffix("1 passed, 0 failed\n"))
  }

  @Test func anEmptyScriptIsMalformed() throws {
    for text in ["", "\n\n", "# only a comment\n"] {
      let path = try file(text)
      let run = try LeakLabBinary.run(["run", path], timeout: .seconds(20))
      #expect(run.status == 2)
      #expect(run.error == "\(path): no steps\n")
      #expect(run.output.isEmpty)
    }
  }

  @Test func aFileThatCannotBeReadSaysWhy() throws {
    let folder = try directory()
    let fifo = folder.appendingPathComponent("pipe.leaklab").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let cases: [(String, String)] = [
      ("/nonexistent/x.leaklab", "cannot read the file: no such file"),
      (folder.path, "cannot read the file: it is a directory"),
      (fifo, "cannot read the file: it is a FIFO, not a regular file"),
      ("/dev/null/x.leaklab", "cannot read the file: a part of the path is not a directory"),
    ]
    for (path, reason) in cases {
      let run = try LeakLabBinary.run(["run", path], timeout: .seconds(20))
      #expect(run.status == 2)
      #expect(run.error == "\(path): \(reason)\n")
    }
  }

  @Test func textThatIsNotUTF8IsMalformedAtItsLine() throws {
    let path = try file(Array("select closure-capture\nopen\n".utf8) + [0x6B, 0x65, 0x79, 0x20, 0xFF, 0x0A])
    let run = try LeakLabBinary.run(["run", path], timeout: .seconds(20))
    #expect(run.status == 2)
    #expect(run.error == "\(path):3: not UTF-8 text\n")
  }

  @Test func controlCharactersInAScriptAreShownEscaped() throws {
    let path = try file("key \u{1B}[2J\n")
    let run = try LeakLabBinary.run(["run", path], timeout: .seconds(20))
    #expect(run.status == 2)
    #expect(run.error.hasPrefix("\(path):1: unknown key \"\\u{1B}[2J\""))
    #expect(!run.error.contains("\u{1B}"))
    let quoted = try file("select closure-capture\nopen\nexpect \"\u{1B}]0;title\u{07}\"\n")
    let failed = try LeakLabBinary.run(["run", quoted], timeout: .seconds(20))
    #expect(failed.status == 1)
    #expect(!failed.output.contains("\u{1B}") && !failed.output.contains("\u{07}"))
    #expect(failed.output.contains("\\u{1B}]0;title\\u{7}"))
  }

  @Test func argumentsAreShownEscapedAndCut() throws {
    let newline = try LeakLabBinary.run(["explain", "a\nb"], timeout: .seconds(20))
    #expect(newline.status == 2)
    #expect(newline.error == "leaklab: unknown scenario \"a\\nb\" (see leaklab list)\n")
    let escape = try LeakLabBinary.run(
      ["explain", "closure-capture", "--mode", "\u{1B}[2J"], timeout: .seconds(20))
    #expect(escape.status == 2)
    #expect(!escape.error.contains("\u{1B}"))
    #expect(escape.error.split(separator: "\n").count == 1)
    let long = try LeakLabBinary.run(
      ["explain", String(repeating: "x", count: 130_000)], timeout: .seconds(20))
    #expect(long.status == 2)
    #expect(long.error.count < 300)
    #expect(long.error.contains("…(130000 characters)"))
    let path = try file("open\njump\n", name: "a\u{1B}[31mb.leaklab")
    let named = try LeakLabBinary.run(["run", path], timeout: .seconds(20))
    #expect(named.status == 2)
    #expect(!named.error.contains("\u{1B}"))
  }
}
