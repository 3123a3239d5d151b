import Foundation
import LeakLabTestSupport
import Testing

/// `leaklab explain ID --stacks`: the command runs itself again with the
/// allocation recorder preloaded, and each leak of the scenario names the
/// line of the catalogue that allocated it, in the text and in the explain view.
@Suite(.memoryViewSupported) struct ExplainSitesTests {
  /// The line of closure-capture's file that makes its screen and use case.
  static func makeScreenLine() throws -> Int {
    let source = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Scenarios/ClosureCapture.swift")
    let lines = try String(contentsOf: source, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let index = try #require(
      lines.firstIndex { $0.contains("makeScreen: {") && $0.contains("FeedService()") })
    return index + 1
  }

  @Test func eachLeakNamesTheCatalogueLineThatAllocatedIt() throws {
    let line = try Self.makeScreenLine()
    let run = try LeaksCommand.run(["explain", "closure-capture", "--stacks"])
    #expect(run.status == 0, "\(run.error)")
    let sites = run.output.split(separator: "\n").filter { $0.contains("allocated in ") }
    #expect(sites.count == 2, "\(run.output)")
    for site in sites {
      #expect(site.contains("allocated in closure in Catalogue.closureCapture at "), "\(site)")
      #expect(site.contains("Scenarios/ClosureCapture.swift:\(line), called from "), "\(site)")
    }
  }

  @Test func theExplainViewShowsTheSiteUnderTheLeaksStatus() throws {
    let run = try LeaksCommand.run(
      ["explain", "closure-capture", "--stacks", "--view", "--width", "120", "--height", "30"])
    let lines = run.output.split(separator: "\n").map(String.init)
    let status = try #require(lines.firstIndex { $0.contains("closed at 0.0 s, detected at 1.0 s") })
    #expect(
      lines[status + 1].contains("allocated in closure in Catalogue.closureCapture at "), "\(run.output)")
  }

  @Test func withoutStacksNoSiteIsShown() throws {
    let run = try LeaksCommand.run(["explain", "closure-capture"])
    #expect(!run.output.contains("allocated in "))
  }
}
