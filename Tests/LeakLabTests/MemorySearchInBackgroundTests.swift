import LeakClock
import Scenarios
import Testing

@testable import LeakLab

/// The live app's quick answer while its memory search runs in the
/// background (issue 26, defect 4: it read "the memory search is off").
@MainActor
@Suite struct MemorySearchInBackgroundTests {
  /// Background work handed to the explainer, kept instead of run.
  final class HeldWork: @unchecked Sendable {
    var items: [@Sendable () -> Void] = []
  }

  @Test func aLeakNoCycleExplainsSaysItsRootIsBeingSearchedFor() throws {
    let scheduler = ManualScheduler()
    let harness = ScenarioHarness(scheduler: scheduler)
    let held = HeldWork()
    harness.explainRetainPaths(
      rootPathSearch: .inBackground, observe: nil, runInBackground: { held.items.append($0) })
    let scenario = Catalogue.dispatchSourceTimer
    harness.open(scenario, mode: .strong)
    for step in scenario.script { harness.perform(step) }
    harness.close()
    scheduler.advance(by: .seconds(1))
    let leak = try #require(harness.detector.report.leaks.first)
    #expect(leak.name == "UploadProgressScreen#1")
    let path = try #require(leak.retainPath)
    #expect(path.hasSuffix(ScenarioHarness.searchingReason), "\(path)")
    #expect(!path.contains("memory search is off"))
    #expect(held.items.count == 1, "the memory search was handed to the background")
  }
}
