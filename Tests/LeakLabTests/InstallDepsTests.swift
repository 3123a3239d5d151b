import Foundation
import LeakLabTestSupport
import Testing

/// `.ci/install-deps` (what `make run`, `make oracle` and `make test` call):
/// the app needs only the ncurses headers, so a machine without valgrind or
/// tmux can still `make run` (issue 10, defect 7).
@Suite struct InstallDepsTests {
  /// Runs the script with a `PATH` that has `id` and nothing else: tmux,
  /// valgrind and apt-get all look missing.
  func run(_ arguments: [String]) throws -> (status: Int32, error: String) {
    let bin = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-deps-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: bin) }
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("id"), withDestinationURL: URL(fileURLWithPath: "/usr/bin/id"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [packageRoot.appendingPathComponent(".ci/install-deps").path] + arguments
    process.environment = ["PATH": bin.path]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/include/ncursesw/curses.h")))
  func theAppNeedsNeitherTmuxNorValgrind() throws {
    let app = try run(["app"])
    #expect(app.status == 0)
    #expect(app.error.isEmpty)
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/include/ncursesw/curses.h")))
  func theOracleNeedsValgrindAndTheTestsNeedBoth() throws {
    let oracle = try run(["oracle"])
    #expect(oracle.status == 1)
    #expect(oracle.error == "leaklab needs: valgrind — install with: sudo apt-get install -y valgrind\n")
    let all = try run([])
    #expect(all.status == 1)
    #expect(all.error.hasPrefix("leaklab needs: tmux valgrind graphviz"))
  }

  @Test func anUnknownSetIsAUsageError() throws {
    let unknown = try run(["everything"])
    #expect(unknown.status == 2)
    #expect(unknown.error == "install-deps: unknown set 'everything' (all, app, oracle)\n")
  }
}
