import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `combine-sink`: the screen keeps its subscription, the sink keeps the screen.
@MainActor
@Suite struct CombineSinkTests {
  @Test(arguments: ScenarioMode.allCases)
  func searchingShowsTheResultsAndOnlyTheStrongSinkKeepsTheScreen(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let screen = SearchScreen(mode: mode)
      #expect(tap("Search", in: screen))
      #expect(screen.resultsLabel.text == "3 results: swift 6.3, swift-syntax, swift-nio")
      parts.keep("SearchScreen", screen)
      parts.keep("SearchModel", screen.model)
    }
    #expect(parts.alive == (mode == .strong ? ["SearchScreen", "SearchModel"] : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func theDetectorReportsTheScreen(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.combineSink, mode: mode) as? SearchScreen
    rig.harness.runAction(at: 0)
    rig.harness.close()
    let failure = waitForDeallocation(of: "SearchScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "SearchScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: SearchScreen#1")
      // Completing the publisher ends the subscription, and with it the cycle.
      screen?.model.results.send(completion: .finished)
      #expect(screen == nil)
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }
}
