import LeakDetector
import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// The reducer alone: state in, the whole state and the effects out, no world.
@Suite struct AppReducerTests {
  var state = AppState(catalogue: SampleScenarios.all.map { CatalogueEntry($0) })

  /// Opens the selected scenario (the first, strong, unless a test changed it).
  mutating func openFirstScenario() {
    expect(&state, .openKeyPressed, effects: [.open(id: "sample-closure", mode: .strong)]) {
      $0.openScenario = OpenScenario(id: "sample-closure", mode: .strong)
      $0.lastRun = OpenScenario(id: "sample-closure", mode: .strong)
      $0.log = [LogEntry(time: .zero, kind: .opened, text: "Closure capture (strong)")]
    }
  }

  @Test func theStartStateSelectsTheFirstScenarioEveryScenarioStrongOverlayAlways() {
    #expect(state.selectedIndex == 0)
    #expect(state.catalogue.map(\.mode) == [.strong, .strong, .strong])
    #expect(state.openScenario == nil && state.phone == nil && state.log.isEmpty)
    #expect(state.overlayMode == .always)
    #expect(state.isOverlayVisible)
    #expect(state.report == .empty)
    #expect(state.keyContext == .browsing)
  }

  @Test mutating func movingClampsAtTheEnds() {
    expect(&state, .moveUpPressed)
    expect(&state, .moveDownPressed) { $0.selectedIndex = 1 }
    expect(&state, .moveDownPressed) { $0.selectedIndex = 2 }
    expect(&state, .moveDownPressed)
  }

  @Test mutating func enterOpensTheSelectedScenarioInItsModeAndLogsIt() {
    expect(&state, .moveDownPressed) { $0.selectedIndex = 1 }
    expect(&state, .captureToggled) {
      $0.catalogue[1].mode = .weak
      $0.notice = "Alert action capture: weak (fixed)"
    }
    expect(&state, .openKeyPressed, effects: [.open(id: "sample-alert", mode: .weak)]) {
      $0.notice = nil
      $0.openScenario = OpenScenario(id: "sample-alert", mode: .weak)
      $0.lastRun = OpenScenario(id: "sample-alert", mode: .weak)
      $0.log = [LogEntry(time: .zero, kind: .opened, text: "Alert action capture (weak)")]
    }
    #expect(state.keyContext == .scenario)
  }

  @Test mutating func whileAScenarioIsOpenSelectionAndModeStayAndANoticeSaysWhy() {
    openFirstScenario()
    expect(&state, .moveDownPressed) { $0.notice = "Esc closes the open scenario first" }
    expect(&state, .captureToggled) {
      $0.notice = "Esc closes the scenario first; the new form applies when it opens again"
    }
    expect(&state, .openKeyPressed) { $0.notice = "A scenario is open: Esc closes it" }
    expect(&state, .scenarioSelected(id: "sample-delayed"))
  }

  @Test mutating func numberKeysTapTheScenariosActionsSpaceIsTheFirst() {
    expect(&state, .actionKeyPressed(1)) { $0.notice = "Enter opens the selected scenario first" }
    expect(&state, .openKeyPressed, effects: [.open(id: "sample-closure", mode: .strong)]) {
      $0.notice = nil
      $0.openScenario = OpenScenario(id: "sample-closure", mode: .strong)
      $0.lastRun = OpenScenario(id: "sample-closure", mode: .strong)
      $0.log = [LogEntry(time: .zero, kind: .opened, text: "Closure capture (strong)")]
    }
    expect(&state, .actionKeyPressed(1), effects: [.runAction(index: 0)]) {
      $0.log.append(LogEntry(time: .zero, kind: .action, text: "Load"))
      $0.tappedActions = [0]
    }
    expect(&state, .actionKeyPressed(2)) {
      $0.notice = "2 does nothing here: this screen has one action (1)"
    }
    #expect(state.keyMap.action(for: .character(" ")) == .actionKeyPressed(1))
  }

  @Test mutating func escGoesBackOnlyWhenAScenarioIsOpenAndTheCloseIsLogged() {
    expect(&state, .closeKeyPressed)
    openFirstScenario()
    expect(&state, .closeKeyPressed, effects: [.goBack])
    expect(&state, .scenarioClosed) {
      $0.openScenario = nil
      $0.log.append(LogEntry(time: .zero, kind: .closed, text: "Closure capture (strong)"))
    }
  }

  @Test mutating func theOverlayCyclesAlwaysOnlyWithIssuesHidden() {
    expect(&state, .overlayKeyPressed) {
      $0.overlayMode = .onlyWithIssues
      $0.notice = "Overlay: only with issues"
    }
    #expect(!state.isOverlayVisible)
    expect(&state, .overlayKeyPressed) {
      $0.overlayMode = .hidden
      $0.notice = "Overlay: hidden"
    }
    expect(&state, .overlayKeyPressed) {
      $0.overlayMode = .always
      $0.notice = "Overlay: always"
    }
    #expect(state.isOverlayVisible)
  }

  @Test mutating func withHelpShownScrollKeysScrollItAnotherKeyClosesItAndQuitStillQuits() {
    expect(&state, .helpKeyPressed) { $0.isHelpVisible = true }
    #expect(state.keyContext == .help)
    // At 80×24 the help is taller than its box.
    expect(&state, .moveDownPressed) { $0.helpScroll = ScrollPosition(y: 1) }
    expect(&state, .captureToggled) { $0.isHelpVisible = false }
    expect(&state, .helpKeyPressed) {
      $0.isHelpVisible = true
      $0.helpScroll = .top
    }
    expect(&state, .quitKeyPressed) { $0.isQuitRequested = true }
  }

  @Test mutating func scriptsSelectScenariosByIdAndSetModes() {
    expect(&state, .scenarioSelected(id: "sample-delayed")) { $0.selectedIndex = 2 }
    expect(&state, .modeSet(.weak)) {
      $0.catalogue[2].mode = .weak
      $0.notice = "Delayed dispatch: weak (fixed)"
    }
    expect(&state, .scenarioSelected(id: "no-such-scenario"))
  }

  @Test mutating func theExplainViewOpensAndClosesEvenWithoutLeaks() {
    expect(&state, .explainKeyPressed) { $0.explainedLeakIndex = 0 }
    #expect(state.keyContext == .explain)
    expect(&state, .closeKeyPressed) { $0.explainedLeakIndex = nil }
  }

  @Test mutating func theLogKeepsOnlyTheNewestEntries() {
    let full = (1...AppState.logLimit).map { LogEntry(time: .seconds($0), kind: .action, text: "\($0)") }
    state.appendToLog(full + full)
    #expect(state.log == full)
    expect(&state, .openKeyPressed, effects: [.open(id: "sample-closure", mode: .strong)]) {
      $0.openScenario = OpenScenario(id: "sample-closure", mode: .strong)
      $0.lastRun = OpenScenario(id: "sample-closure", mode: .strong)
      $0.log =
        Array(full.dropFirst()) + [LogEntry(time: .zero, kind: .opened, text: "Closure capture (strong)")]
    }
  }

  @Test mutating func qQuits() {
    expect(&state, .quitKeyPressed) { $0.isQuitRequested = true }
  }

  // MARK: The helper

  @Test func aFieldDifferenceNamesOnlyTheFieldsThatChanged() {
    var changed = state
    changed.selectedIndex = 2
    changed.notice = "hello"
    #expect(
      fieldDifference(state, changed)
        == "- selectedIndex: 0\n+ selectedIndex: 2\n- notice: nil\n+ notice: Optional(\"hello\")")
    #expect(fieldDifference(state, state).isEmpty)
  }
}
