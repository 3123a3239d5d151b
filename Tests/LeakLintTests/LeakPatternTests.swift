import Foundation
import LeakLabTestSupport
import LeakLint
import ProcessLeaks
import Scenarios
import Testing

/// A leak kind's pattern by name: the catalogue scenario that teaches it and
/// the lint rule that finds it, and — given the program's sources — the line.
@Suite struct LeakPatternTests {
  @Test func everyPatternNamesAScenarioOfTheCatalogueAndARuleOfTheLint() {
    for (pattern, _) in LeakPattern.all {
      #expect(Catalogue.scenario(id: pattern.scenario) != nil, "no scenario \(pattern.scenario)")
      #expect(LintRule(rawValue: pattern.lintRule) != nil, "no rule \(pattern.lintRule)")
    }
  }

  /// `leaklab leaks --sources` on FeedCycle: the kind names its pattern, the
  /// lint's finding in the program's own file, and the capture to break.
  @Test(.memoryViewSupported) func withItsSourcesAKindNamesTheLineTheLintFlags() throws {
    let sources = packageRoot.appendingPathComponent("Tools/LeakFixtures/FeedCycle").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: builtExecutable(named: "leaklab"))
    process.arguments = ["leaks", "--sources", sources, "--", builtExecutable(named: "FeedCycle"), "leaky"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    let lines = text.split(separator: "\n").map(String.init)
    let lint = Linter().lint(
      source: try String(contentsOfFile: sources + "/main.swift", encoding: .utf8),
      path: sources + "/main.swift")
    let finding = try #require(lint.first { $0.rule == .storedClosure })
    #expect(
      lines.contains(
        "   pattern: a stored closure capturing its owner (catalogue closure-capture, lint rule stored-closure)"
      ))
    #expect(lines.contains("   lint: " + finding.compilerFormat))
    #expect(lines.contains { $0.hasPrefix("   look at: FeedService.completion, the reference to break") })
  }
}
