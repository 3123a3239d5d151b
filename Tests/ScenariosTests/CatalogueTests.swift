import Foundation
import LeakClock
import LeakDetector
import ScreenKit
import Testing

@testable import Scenarios

@MainActor
@Suite struct CatalogueTests {
  nonisolated static let ids = Catalogue.all.map(\.id)

  @Test func theCatalogueListsTheEighteenScenariosInAStableOrder() {
    #expect(
      Self.ids == [
        "closure-capture", "notification-observer", "strong-delegate", "alert-action-capture",
        "delayed-dispatch", "viper-module", "repeating-timer", "nested-closure", "lazy-closure-property",
        "task-loop", "foundation-timer", "dispatch-source-timer", "combine-sink", "child-coordinator",
        "task-zombie", "unowned-capture", "handler-context", "abandoned-memory",
      ])
    #expect(Set(Self.ids).count == Self.ids.count)
    #expect(Catalogue.scenario(id: "task-loop")?.title == "Task looping over an endless stream")
    #expect(Catalogue.scenario(id: "no-such-scenario") == nil)
  }

  @Test(arguments: ids)
  func everyScenarioDescribesItself(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    #expect(!scenario.title.isEmpty)
    #expect(!scenario.pattern.isEmpty && !scenario.pattern.contains("\n"))
    #expect(!scenario.actions.isEmpty)
    let sentences = scenario.whyItLeaks.split(separator: ".").filter { $0.count > 3 }.count
    #expect((2...3).contains(sentences), "whyItLeaks should be 2–3 sentences, has \(sentences)")
    #expect(!scenario.fix.isEmpty && !scenario.fix.contains("\n"))
    // The leaky form leaks, or it says what goes wrong that no leak detector reports.
    #expect(
      (scenario.expectedVerdict(for: .strong) != .clean) != (scenario.detectorBlindSpot != nil),
      "the leaky form must leak, or name its blind spot (not both)")
    #expect(scenario.expectedVerdict(for: .weak) == .clean, "the fixed form must be clean")
  }

  @Test(arguments: ids, ScenarioMode.allCases)
  func everyActionIsAButtonOnTheOpenScreen(id: String, mode: ScenarioMode) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let rig = Rig()
    rig.harness.open(scenario, mode: mode)
    let buttons = try #require(rig.harness.window.snapshot()).buttons
    for action in scenario.actions {
      #expect(buttons.contains(action.title), "no button \(action.title) on \(id)")
    }
    rig.harness.close()
  }

  // MARK: The declared verdict, scenario by scenario and mode by mode

  @Test(arguments: ids, ScenarioMode.allCases)
  func theDetectorsVerdictEqualsTheDeclaredOne(id: String, mode: ScenarioMode) async throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let result = await ScenarioRunner.run(scenario, mode: mode)
    #expect(result.missingSteps.isEmpty)
    #expect(result.detected == scenario.expectedVerdict(for: mode))
    #expect(result.match)
    switch mode {
    case .strong where scenario.detectorBlindSpot != nil:
      #expect(result.labelAfterGrace == SummaryLabel.clean)
    case .strong:
      #expect(result.labelAfterGrace.hasPrefix(SummaryLabel.leakedPrefix))
    case .weak:
      #expect(result.labelAfterGrace == SummaryLabel.clean)
    }
  }

  @Test func aWrongDeclarationIsAMismatch() async throws {
    let honest = Catalogue.delayedDispatch
    let wrong = Scenario(
      id: honest.id, title: honest.title, pattern: honest.pattern, actions: honest.actions,
      whyItLeaks: honest.whyItLeaks, fix: honest.fix, code: honest.code.source,
      expected: (strong: .leaking("SyncScreen"), weak: .clean),
      makeScreen: { mode, environment in honest.makeScreen(mode: mode, environment: environment) })
    let results = await CatalogueCheck.run([wrong])
    #expect(results.map(\.match) == [false, true])
    #expect(results[0].detected == .leaking("SyncScreen", resolvedAfter: .seconds(10)))
  }

  @Test func aMissingButtonIsAMismatch() async throws {
    let honest = Catalogue.lazyClosureProperty
    let renamed = Scenario(
      id: honest.id, title: honest.title, pattern: honest.pattern,
      actions: [ScenarioAction("No such button", "")], whyItLeaks: honest.whyItLeaks, fix: honest.fix,
      code: honest.code.source, expected: (strong: .clean, weak: .clean),
      makeScreen: { mode, environment in honest.makeScreen(mode: mode, environment: environment) })
    let result = await ScenarioRunner.run(renamed, mode: .strong)
    #expect(result.detected == .clean)
    #expect(result.missingSteps == [.action(0)])
    #expect(!result.match)
  }
}
