import LeakClock
import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// The code pane beside the live verdict: for both forms of every catalogue
/// scenario, the line `leaklab lint` flags is marked `▶` and the last row says
/// what the lint found and whether the run confirmed it.
@MainActor
@Suite struct CodePaneLintTests {
  /// Runs `scenario` in `mode` as a user does: open, its script, close, grace delay.
  private func run(_ scenario: Scenario, mode: ScenarioMode) -> TestApp {
    let app = TestApp(catalogue: Catalogue.all)
    app.send(.scenarioSelected(id: scenario.id), .modeSet(mode), .openKeyPressed)
    for step in scenario.script {
      switch step {
      case .action(let index): app.send(.actionKeyPressed(index + 1))
      case .alertAction(let title):
        let index = app.state.phone?.alert?.actions.firstIndex { $0.title == title } ?? 0
        app.send(.actionKeyPressed(index + 1))
      case .wait(let duration): app.advance(duration)
      }
      app.advance(.milliseconds(10))  // due work runs, as the live loop drains the main queue
    }
    app.send(.closeKeyPressed)
    app.advance(.seconds(2))
    return app
  }

  private func codePane(_ state: AppState) -> [String] {
    render(state, size: Size(width: 160, height: 50)).lines
  }

  /// The leaky forms that leak (every one of them the lint flags): a detector can confirm the lint.
  nonisolated static let leaking = Catalogue.all.filter { $0.detectorBlindSpot == nil }.map(\.id)

  @Test(arguments: leaking)
  func theLeakyFormsFlaggedLineIsMarkedAndTheRunConfirmsIt(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let entry = CatalogueEntry(scenario, mode: .strong)
    let lint = try #require(ScenarioLint(entry: entry, mode: .strong))
    #expect(!lint.findings.isEmpty)
    let before = TestApp(catalogue: Catalogue.all)
    before.send(.scenarioSelected(id: id), .modeSet(.strong))
    #expect(lint.status(in: before.state) == "lint: \(lint.findings[0].title) — open and close it to check")
    #expect(codePane(before.state).contains { $0.contains("▶ ") }, "\(id): no marked line")

    let app = run(scenario, mode: .strong)
    #expect(lint.status(in: app.state) == "lint: \(lint.findings[0].title) — confirmed: leaked", "\(id)")
    #expect(lint.isConfirmed(in: app.state) == true)
  }

  @Test(arguments: Catalogue.all.map(\.id))
  func theFixedFormIsNotFlaggedAndTheRunConfirmsItIsClean(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let lint = try #require(ScenarioLint(entry: CatalogueEntry(scenario, mode: .weak), mode: .weak))
    let app = run(scenario, mode: .weak)
    #expect(lint.status(in: app.state) == "lint: not flagged — confirmed: clean", "\(id)")
    #expect(!codePane(app.state).contains { $0.contains("▶ ") }, "\(id): a line is marked")
    #expect(codePane(app.state).contains { $0.contains("lint: not flagged — confirmed: clean") })
  }

  /// `task-zombie` and `unowned-capture` leak nothing: the lint's finding
  /// stands, and the line says the detector has nothing to confirm.
  @Test(arguments: [Catalogue.taskZombie.id, Catalogue.unownedCapture.id])
  func aBlindSpotsLeakyFormSaysTheDetectorHasNothingToConfirm(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let lint = try #require(ScenarioLint(entry: CatalogueEntry(scenario, mode: .strong), mode: .strong))
    let app = run(scenario, mode: .strong)
    #expect(
      lint.status(in: app.state)
        == "lint: \(lint.findings[0].title) — no leak to confirm: the log shows what goes wrong")
    #expect(lint.isConfirmed(in: app.state) == nil)
  }

  @Test func aScenarioOutsideTheCatalogueHasNoLintLine() {
    let app = TestApp()
    #expect(ScenarioLint(entry: app.state.catalogue[0], mode: .strong) == nil)
    #expect(!codePane(app.state).contains { $0.contains("lint:") })
  }
}
