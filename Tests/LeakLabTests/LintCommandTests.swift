import Foundation
import Testing

/// `leaklab lint` as users run it: the real binary on real files.
@Suite(.enabled(if: LeakLabBinary.hasLint)) struct LintCommandTests {
  /// A folder with one leaky and one clean file, made fresh for each test.
  private static func makeProject() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-lint-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
    try """
    final class Player {
      var onFinish: (() -> Void)?
      func start() { onFinish = { self.stop() } }
      func stop() {}
    }
    """.write(
      to: folder.appendingPathComponent("Sources/App/Player.swift"), atomically: true, encoding: .utf8)
    try """
    final class Clean {
      var onFinish: (() -> Void)?
      func start() { onFinish = { [weak self] in self?.stop() } }
      func stop() {}
    }
    """.write(to: folder.appendingPathComponent("Sources/App/Clean.swift"), atomically: true, encoding: .utf8)
    return folder
  }

  @Test func aFolderWithALeakPrintsCompilerDiagnosticsAndExitsOne() throws {
    let folder = try Self.makeProject()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try LeakLabBinary.run(["lint", folder.path + "/Sources"])
    #expect(result.status == 1)
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix(folder.path + "/Sources/App/Player.swift:3:29: warning: ") == true)
    #expect(lines.first?.hasSuffix("[stored-closure]") == true)
    #expect(result.error == "leaklab lint: 1 finding in 2 files (10 lines)\n")
  }

  @Test func aCleanFileExitsZeroAndJSONAndSARIFAreValid() throws {
    let folder = try Self.makeProject()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clean = try LeakLabBinary.run(["lint", folder.path + "/Sources/App/Clean.swift"])
    #expect(clean.status == 0)
    #expect(clean.output.isEmpty)
    for format in ["json", "sarif"] {
      let result = try LeakLabBinary.run(["lint", "--format", format, folder.path])
      #expect(result.status == 1)
      #expect((try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) != nil, "\(format)")
    }
  }

  @Test func aConfigurationFileCanDisableTheRule() throws {
    let folder = try Self.makeProject()
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("lint.json")
    try #"{"disabled": ["stored-closure"]}"#.write(to: config, atomically: true, encoding: .utf8)
    let result = try LeakLabBinary.run(["lint", "--config", config.path, folder.path])
    #expect(result.status == 0)
  }

  @Test(arguments: [
    (["lint", "/no/such/path"], "leaklab: no such file or folder: /no/such/path\n"),
    (["lint", "--format", "xml", "."], nil),
    (["lint"], nil),
  ])
  func badInputIsOneLineAndStatusTwo(arguments: [String], message: String?) throws {
    let result = try LeakLabBinary.run(arguments)
    #expect(result.status == 2)
    #expect(result.error.split(separator: "\n").count == 1)
    if let message { #expect(result.error == message) }
  }

  @Test func aBadConfigurationIsOneLineAndStatusTwo() throws {
    let folder = try Self.makeProject()
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("lint.json")
    try #"{"disabled": ["nope"]}"#.write(to: config, atomically: true, encoding: .utf8)
    let result = try LeakLabBinary.run(["lint", "--config", config.path, folder.path])
    #expect(result.status == 2)
    #expect(result.error == "leaklab: \(config.path): unknown rule \"nope\" in \"disabled\"\n")
  }
}
