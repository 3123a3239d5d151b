import Foundation
import LeakLabTestSupport
import ProcessLeaks
import Testing

/// `leaklab heap --stacks --diff-from`: each grown type names the line that
/// allocated most of its instances (GrowingHeap's response cache).
@Suite(.memoryViewSupported) struct HeapSitesTests {
  /// The line of GrowingHeap's source that makes a cached response.
  static func cachedResponseLine() throws -> Int {
    let source = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Tools/LeakFixtures/GrowingHeap/main.swift")
    let lines = try String(contentsOf: source, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let index = try #require(lines.firstIndex { $0.contains("responseCache[path] = CachedResponse(") })
    return index + 1
  }

  @Test func aGrownTypeNamesTheLineThatAllocatedIt() throws {
    let line = try Self.cachedResponseLine()
    let fixture = LeaksCommand.fixture("GrowingHeap")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("heap-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let before = try LeaksCommand.run(
      ["heap", "--json", "-o", file.path, "--", fixture, "cache", "leaky", "--requests", "20"])
    #expect(before.status == 0)
    let after = try LeaksCommand.run(
      ["heap", "--stacks", "--diff-from", file.path, "--", fixture, "cache", "leaky", "--requests", "200"])
    let lines = after.output.split(separator: "\n").map(String.init)
    let grown = try #require(lines.firstIndex { $0.contains("CachedResponse  [GrowingHeap, program]") })
    let site = try #require(lines[(grown + 1)...].prefix(2).first { $0.contains("allocated in ") })
    #expect(site.contains("allocated in handleRequest(_:pattern:leaky:) at "))
    #expect(site.contains("GrowingHeap/main.swift:\(line), called from "), "\(site)")
    let (_, document, _) = try HeapCommandTests.census(
      ["--stacks", "--diff-from", file.path, "--", fixture, "cache", "leaky", "--requests", "200"])
    let change = try #require(document.diff?.grown.first { $0.name == "CachedResponse" })
    #expect(change.allocatedIn?.contains("GrowingHeap/main.swift:\(line), called from ") == true)
  }
}
