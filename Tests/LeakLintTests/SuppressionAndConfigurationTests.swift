import Foundation
import LeakLint
import Testing

/// `// leaklab:ignore RULE` and `.leaklab-lint.json`.
@Suite struct SuppressionAndConfigurationTests {
  static let leaky = """
    final class Player {
      var onFinish: (() -> Void)?
      var onPause: (() -> Void)?
      func start() {
        onFinish = { self.stop() }  // leaklab:ignore stored-closure
        // leaklab:ignore all
        onPause = { self.stop() }
      }
      func stop() {}
    }
    """

  @Test func anIgnoreCommentOnTheLineOrTheLineAboveSuppressesItsRule() {
    #expect(Linter().lint(source: Self.leaky).isEmpty)
  }

  @Test func anIgnoreCommentForAnotherRuleSuppressesNothing() {
    let source = Self.leaky.replacingOccurrences(of: "ignore stored-closure", with: "ignore task-loop")
    #expect(Linter().lint(source: source).map(\.line) == [5])
  }

  @Test func aConfigurationDisablesRulesAndExcludesPaths() throws {
    let configuration = try LintConfiguration(
      json: Data(#"{"disabled": ["delayed-dispatch"], "exclude": ["Generated"]}"#.utf8))
    #expect(!configuration.isEnabled(.delayedDispatch))
    #expect(configuration.isEnabled(.storedClosure))
    #expect(configuration.isExcluded("Generated/Model.swift"))
    #expect(!configuration.isExcluded("Sources/Generated.swift"))
    let source = """
      import Dispatch
      final class A {
        func later() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { self.run() } }
        func run() {}
      }
      """
    #expect(Linter().lint(source: source).count == 1)
    #expect(Linter(configuration: configuration).lint(source: source).isEmpty)
  }

  @Test func onlyRunsTheNamedRules() throws {
    let configuration = try LintConfiguration(json: Data(#"{"only": ["task-loop"]}"#.utf8))
    #expect(
      Linter(configuration: configuration).lint(
        source: Self.leaky.replacingOccurrences(of: "leaklab:ignore", with: "x")
      ).isEmpty)
  }

  @Test(arguments: [
    (#"{"disabled": ["stored-closures"]}"#, #"unknown rule "stored-closures" in "disabled""#),
    (#"{"exclude": "Generated"}"#, #""exclude" must be a list of strings"#),
    (#"{"rules": []}"#, #"unknown key "rules""#),
    ("[1, 2]", "not a JSON object"),
  ])
  func aBadConfigurationIsAOneLineError(json: String, message: String) {
    #expect {
      try LintConfiguration(json: Data(json.utf8), path: "c.json")
    } throws: { error in
      let text = (error as? LintError)?.description ?? ""
      return text.contains(message) && !text.contains("\n") && text.hasPrefix("c.json: ")
    }
  }
}

/// Input that is not Swift, or nothing at all, is a one-line error (exit 2 in
/// `leaklab lint`), never `0 findings`: a mistyped path in CI must not pass.
@Suite struct BadInputTests {
  /// A fresh folder of its own under the temporary directory.
  static func scratchFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("leaklint-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func message(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return (error as? LintError)?.description
    }
  }

  @Test func aFileThatIsNotSwiftNamedExplicitlyIsAnError() throws {
    let message = Self.message { _ = try Linter().lint(paths: ["/etc/passwd"]) }
    #expect(message == "not a Swift file: /etc/passwd (name .swift files or folders)")
  }

  @Test func aBinaryNamedSwiftIsAnError() throws {
    let folder = try Self.scratchFolder("binary")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Tool.swift")
    try Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00]).write(to: file)
    let message = Self.message { _ = try Linter().lint(paths: [file.path]) }
    #expect(message == "not Swift source (binary data): \(file.path)")
  }

  @Test func anEmptyFolderOrOneWithoutSwiftFilesHasNothingToLint() throws {
    let folder = try Self.scratchFolder("empty")
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(
      Self.message { _ = try Linter().lint(paths: [folder.path]) }
        == "nothing to lint: no Swift files in \(folder.path)")
    try Data("notes".utf8).write(to: folder.appendingPathComponent("README.md"))
    #expect(
      Self.message { _ = try Linter().lint(paths: [folder.path]) }
        == "nothing to lint: no Swift files in \(folder.path)")
  }

  @Test func aMistypedPathIsAnError() {
    #expect(
      Self.message { _ = try Linter().lint(paths: ["Sourcse/App"]) } == "no such file or folder: Sourcse/App")
  }

  @Test func aDeviceNamedExplicitlyIsAnError() {
    #expect(
      Self.message { _ = try Linter().lint(paths: ["/dev/null"]) }?.hasPrefix("not a Swift file") == true)
  }

  @Test func aFolderNamedThroughASymbolicLinkIsRead() throws {
    let folder = try Self.scratchFolder("linked")
    defer { try? FileManager.default.removeItem(at: folder) }
    let real = folder.appendingPathComponent("Sources")
    try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
    try Data("final class A {}\n".utf8).write(to: real.appendingPathComponent("A.swift"))
    let link = folder.appendingPathComponent("Link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
    #expect(try Linter().swiftFiles(under: [link.path]) == [link.path + "/A.swift"])
  }
}
