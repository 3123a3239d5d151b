import LeakDetector
import Scenarios
import Testing

@testable import LeakLab

/// The reducer alone: state in, state and effects out, no world.
@Suite struct AppReducerTests {
  var state = AppState(catalogue: SampleScenarios.all.map { CatalogueEntry($0) })

  @Test func theStartStateSelectsTheFirstScenarioEveryScenarioStrongOverlayAlways() {
    #expect(state.selectedIndex == 0)
    #expect(state.catalogue.map(\.mode) == [.strong, .strong, .strong])
    #expect(state.overlayMode == .always)
    #expect(state.isOverlayVisible)
    #expect(state.report.summaryLabel == "No issues detected")
    #expect(state.keyContext == .browsing)
  }

  @Test mutating func movingClampsAtTheEnds() {
    #expect(AppReducer.reduce(&state, .moveUpPressed) == [])
    #expect(state.selectedIndex == 0)
    _ = AppReducer.reduce(&state, .moveDownPressed)
    _ = AppReducer.reduce(&state, .moveDownPressed)
    _ = AppReducer.reduce(&state, .moveDownPressed)
    #expect(state.selectedIndex == 2)
  }

  @Test mutating func enterOpensTheSelectedScenarioInItsModeAndLogsIt() {
    _ = AppReducer.reduce(&state, .moveDownPressed)
    _ = AppReducer.reduce(&state, .captureToggled)
    #expect(state.catalogue[1].mode == .weak)
    #expect(AppReducer.reduce(&state, .openKeyPressed) == [.open(id: "sample-alert", mode: .weak)])
    #expect(state.openScenario == OpenScenario(id: "sample-alert", mode: .weak))
    #expect(state.log == [LogEntry(time: .zero, kind: .opened, text: "Alert action capture (weak)")])
    #expect(state.keyContext == .scenario)
  }

  @Test mutating func whileAScenarioIsOpenSelectionAndModeStayAndANoticeSaysWhy() {
    _ = AppReducer.reduce(&state, .openKeyPressed)
    #expect(AppReducer.reduce(&state, .moveDownPressed) == [])
    #expect(state.selectedIndex == 0)
    #expect(state.notice == "Esc closes the open scenario first")
    #expect(AppReducer.reduce(&state, .captureToggled) == [])
    #expect(state.catalogue[0].mode == .strong)
    #expect(AppReducer.reduce(&state, .openKeyPressed) == [])
    #expect(state.notice == "A scenario is open: Esc closes it")
  }

  @Test mutating func numberKeysTapTheScenariosActionsSpaceIsTheFirst() {
    #expect(AppReducer.reduce(&state, .actionKeyPressed(1)) == [])
    #expect(state.notice == "Enter opens the selected scenario first")
    _ = AppReducer.reduce(&state, .openKeyPressed)
    #expect(AppReducer.reduce(&state, .actionKeyPressed(1)) == [.runAction(index: 0)])
    #expect(state.log.last?.text == "Load")
    #expect(AppReducer.reduce(&state, .actionKeyPressed(2)) == [])
  }

  @Test mutating func escGoesBackOnlyWhenAScenarioIsOpen() {
    #expect(AppReducer.reduce(&state, .closeKeyPressed) == [])
    _ = AppReducer.reduce(&state, .openKeyPressed)
    #expect(AppReducer.reduce(&state, .closeKeyPressed) == [.goBack])
    #expect(AppReducer.reduce(&state, .scenarioClosed) == [])
    #expect(state.openScenario == nil)
    #expect(state.log.last == LogEntry(time: .zero, kind: .closed, text: "Closure capture (strong)"))
  }

  @Test mutating func theOverlayCyclesAlwaysOnlyWithIssuesHidden() {
    _ = AppReducer.reduce(&state, .overlayKeyPressed)
    #expect(state.overlayMode == .onlyWithIssues)
    #expect(!state.isOverlayVisible)
    _ = AppReducer.reduce(&state, .overlayKeyPressed)
    #expect(state.overlayMode == .hidden)
    _ = AppReducer.reduce(&state, .overlayKeyPressed)
    #expect(state.overlayMode == .always)
    #expect(state.isOverlayVisible)
  }

  @Test mutating func withHelpShownAKeyOnlyClosesItButQuitStillQuits() {
    _ = AppReducer.reduce(&state, .helpKeyPressed)
    #expect(state.isHelpVisible)
    #expect(state.keyContext == .help)
    #expect(AppReducer.reduce(&state, .moveDownPressed) == [])
    #expect(!state.isHelpVisible)
    #expect(state.selectedIndex == 0)
    _ = AppReducer.reduce(&state, .helpKeyPressed)
    _ = AppReducer.reduce(&state, .quitKeyPressed)
    #expect(state.isQuitRequested)
  }

  @Test mutating func scriptsSelectScenariosByIdAndSetModes() {
    _ = AppReducer.reduce(&state, .scenarioSelected(id: "sample-delayed"))
    #expect(state.selectedIndex == 2)
    _ = AppReducer.reduce(&state, .modeSet(.weak))
    #expect(state.catalogue[2].mode == .weak)
    _ = AppReducer.reduce(&state, .scenarioSelected(id: "no-such-scenario"))
    #expect(state.selectedIndex == 2)
  }

  @Test mutating func theExplainViewOpensAndClosesEvenWithoutLeaks() {
    _ = AppReducer.reduce(&state, .explainKeyPressed)
    #expect(state.explainedLeakIndex == 0)
    #expect(state.keyContext == .explain)
    _ = AppReducer.reduce(&state, .closeKeyPressed)
    #expect(state.explainedLeakIndex == nil)
  }

  @Test mutating func qQuits() {
    _ = AppReducer.reduce(&state, .quitKeyPressed)
    #expect(state.isQuitRequested)
  }
}
