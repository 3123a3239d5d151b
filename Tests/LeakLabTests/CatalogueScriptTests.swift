import Foundation
import LeakLabTestSupport
import Scenarios
import StepScripts
import Testing

@testable import LeakLab

/// Every step script under `Scenarios/Scripts` passes headless, on the manual clock.
@MainActor
@Suite struct CatalogueScriptTests {
  nonisolated static let directory = packageRoot.appendingPathComponent("Scenarios/Scripts")

  nonisolated static let files: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".leaklab") }.sorted()

  @Test func thereIsAScriptPerScenarioAndModeAndNoOther() {
    let expected = Catalogue.all.flatMap { scenario in
      ScenarioMode.allCases.map { "\(scenario.id).\($0.rawValue).leaklab" }
    }
    #expect(Self.files == expected.sorted())
  }

  @Test(arguments: files)
  func eachScriptSelectsItsScenarioAndSetsItsMode(file: String) throws {
    let parts = file.split(separator: ".")
    let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
    let commands = try StepScriptParser.parse(text, file: file).steps.map(\.command)
    let selects = commands.filter { if case .select = $0 { true } else { false } }
    #expect(selects == [.select(String(parts[0]))])
    #expect(commands.contains(.mode(try #require(StepMode(rawValue: String(parts[1]))))))
  }

  @Test func aScriptsModeIsTheScenarioModeOfTheSameName() {
    #expect(StepMode.allCases.map(\.rawValue) == ScenarioMode.allCases.map(\.rawValue))
    #expect(StepMode.allCases.map { ScenarioMode($0).rawValue } == StepMode.allCases.map(\.rawValue))
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
