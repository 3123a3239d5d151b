import LeakLab
import Scenarios
import Testing

/// For every scenario in its leaky form, the retain path names the real
/// culprit edge; in its fixed form nothing is left to explain.
@MainActor
@Suite struct ScenarioExplanationTests {
  /// Each scenario's leaked instance and a piece of its path that only the culprit edge produces.
  nonisolated static let culprits: [(id: String, leak: String, edge: String)] = [
    (
      "closure-capture", "LoadFeedUseCase#1",
      "service: FeedService#1 → completion: closure in LoadFeedUseCase.execute()"
    ),
    (
      "notification-observer", "InboxScreen#1",
      "captures closure in InboxScreen.observeInbox() → captures InboxScreen#1"
    ),
    (
      "strong-delegate", "CheckoutScreen#1",
      "subviews[1]: StrongDelegatePaymentForm#1 → delegate: CheckoutScreen#1 (strong)"
    ),
    (
      "alert-action-capture", "AlertController#1",
      "actions[1]: AlertAction#1 → handler: closure in DraftsScreen.confirmDelete()"
    ),
    (
      "delayed-dispatch", "SyncScreen#1",
      "ScheduledWork#1 → work: closure in SyncScreen.syncLater() → captures SyncScreen#1"
    ),
    (
      "viper-module", "ProfilePresenter#1",
      "interactor: StrongOutputProfileInteractor#1 → output: ProfilePresenter#1"
    ),
    (
      "repeating-timer", "StopwatchScreen#1",
      "timer: RepeatingWork#1 → work: closure in StopwatchScreen.start()"
    ),
    ("nested-closure", "PhotoScreen#1", "retryButton: Button#1 → action: closure in PhotoScreen.loadPhoto()"),
    (
      "lazy-closure-property", "CartScreen#1", "closure in CartScreen.describe.getter → captures CartScreen#1"
    ),
    ("task-loop", "TickerScreen#1", "task._task"),
  ]

  @Test(arguments: culprits.map(\.id))
  func theLeakyFormsPathNamesTheCulpritEdge(id: String) throws {
    let culprit = try #require(Self.culprits.first { $0.id == id })
    let scenario = try #require(Catalogue.scenario(id: id))
    let explanation = ScenarioExplanation(scenario, mode: .strong)
    let leak = try #require(explanation.leaks.first { $0.name == culprit.leak })
    let path = try #require(leak.retainPath)
    #expect(path.contains(culprit.edge), "\(path)")
    #expect(path.hasPrefix("retain cycle: \(culprit.leak)"), "\(path)")
  }

  @Test func aLeakHeldByAnotherLeakIsExplainedFromIt() throws {
    let explanation = ScenarioExplanation(Catalogue.alertActionCapture, mode: .strong)
    let screen = try #require(explanation.leaks.first { $0.name == "DraftsScreen#1" })
    #expect(
      screen.retainPath
        == "held from root: AlertController#1 → actions[1]: AlertAction#1 → handler: closure in DraftsScreen.confirmDelete() → captures[0] DraftsScreen#1 (strong)"
    )
  }

  @Test(arguments: Catalogue.all.map(\.id))
  func theFixedFormLeavesNothingToExplain(id: String) throws {
    let explanation = ScenarioExplanation(try #require(Catalogue.scenario(id: id)), mode: .weak)
    #expect(explanation.leaks.isEmpty)
    #expect(explanation.lines.last == "  nothing outlived the screen: no cycle, no root path")
  }
}
