import Foundation
import LeakLabTestSupport
import LeakLint
import Testing

/// Same input, same output: `leaklab lint` prints the same bytes on every run
/// (no hash order reaches a message, a cycle path or the order of findings),
/// and bad input is an error with exit status 2, never `0 findings`.
@Suite struct DeterminismTests {
  struct Run {
    var status: Int32
    var output: String
    var error: String
  }

  /// Runs the built `leaklab` with `arguments` in the package root.
  static func leaklab(_ arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: builtExecutable(named: "leaklab"))
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read both pipes before waiting: a full pipe would block the child.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorData, as: UTF8.self))
  }

  static let corpus = "Tests/LeakLintTests/Corpus"

  @Test func twoProcessesPrintTheSameBytes() throws {
    let first = try Self.leaklab(["lint", "--format", "json", Self.corpus])
    let second = try Self.leaklab(["lint", "--format", "json", Self.corpus])
    #expect(first.status == 1)
    #expect(first.output.contains("\"rule\""))
    #expect(first.output == second.output)
  }

  @Test func findingsAtOnePlaceAreOrderedByTheirWholeText() {
    let a = LintFinding(
      file: "A.swift", line: 3, column: 5, rule: .strongBackReference, message: "`a` holds a B")
    let b = LintFinding(
      file: "A.swift", line: 3, column: 5, rule: .strongBackReference, message: "`a` holds a C")
    #expect([b, a].sorted() == [a, b])
    #expect([a, b].sorted() == [a, b])
  }

  @Test func threeRunsInOneProcessAgree() throws {
    let folder = packageRoot.appendingPathComponent(Self.corpus).path
    let runs = try (0..<3).map { _ in
      LintOutputFormat.text.render(try Linter().lint(paths: [folder]).findings)
    }
    #expect(!runs[0].isEmpty)
    #expect(runs[1] == runs[0])
    #expect(runs[2] == runs[0])
  }

  @Test(arguments: [
    ("/etc/passwd", "leaklab: not a Swift file: /etc/passwd (name .swift files or folders)\n"),
    (
      "Tests/LeakLintTests/Corpus/UIKitt",
      "leaklab: no such file or folder: Tests/LeakLintTests/Corpus/UIKitt\n"
    ),
  ])
  func badInputExitsWithStatusTwoAndOneLine(path: String, message: String) throws {
    let run = try Self.leaklab(["lint", path])
    #expect(run.status == 2)
    #expect(run.error == message)
    #expect(run.output.isEmpty)
  }

  @Test func theExecutableItselfIsNotSwift() throws {
    let binary = builtExecutable(named: "leaklab")
    let run = try Self.leaklab(["lint", binary])
    #expect(run.status == 2)
    #expect(run.error == "leaklab: not a Swift file: \(binary) (name .swift files or folders)\n")
  }

  @Test func anEmptyFolderSaysThereWasNothingToLint() throws {
    let folder = try BadInputTests.scratchFolder("cli-empty")
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try Self.leaklab(["lint", folder.path])
    #expect(run.status == 2)
    #expect(run.error == "leaklab: nothing to lint: no Swift files in \(folder.path)\n")
  }
}
