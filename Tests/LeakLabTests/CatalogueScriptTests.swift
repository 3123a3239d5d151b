import Foundation
import LeakLab
import StepScripts
import Testing

/// Every step script under `Scenarios/Scripts` passes headless, on the manual clock.
@MainActor
@Suite struct CatalogueScriptTests {
  nonisolated static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios/Scripts")

  nonisolated static let files: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".leaklab") }.sorted()

  @Test func thereIsAScriptPerScenarioAndMode() {
    #expect(Self.files.count == 20)
  }

  @Test(arguments: files)
  func theScriptPasses(file: String) throws {
    let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
    let script = try StepScriptParser.parse(text, file: file)
    let result = try StepRunner.run(script, on: HeadlessStepDriver())
    #expect(result.passed, "\(StepReport.lines(for: result).joined(separator: "\n"))")
    #expect(result.records.count == script.steps.count)
  }
}
