import LeakClock
import ScreenKit
import Testing

@testable import Scenarios

/// `abandoned-memory`: no cycle; a global list keeps every article screen that appeared.
@MainActor
@Suite struct AbandonedMemoryTests {
  @Test(arguments: ScenarioMode.allCases)
  func theGlobalListKeepsTheClosedScreenOnlyInTheLeakyForm(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.abandonedMemory, mode: mode) as? ArticleScreen
    #expect(screen.map { screen in OpenScreens.screens.contains { $0 === screen } } == true)
    rig.harness.runAction(at: 0)
    #expect(screen?.paragraphLabel.text == "Paragraph 2 of 5")
    rig.harness.close()
    rig.scheduler.advance(by: .seconds(1))
    #expect((screen != nil) == (mode == .strong))
    #expect(rig.label == (mode == .strong ? "Leaked: ArticleScreen#1" : "No issues detected"))
    if let screen { OpenScreens.unregister(screen) }
  }

  @Test func eachOpenOfTheLeakyFormAddsAScreenToTheList() {
    var screens: [ArticleScreen] = []
    for _ in 0..<3 {
      let rig = Rig()
      if let screen = rig.harness.open(Catalogue.abandonedMemory, mode: .strong) as? ArticleScreen {
        screens.append(screen)
      }
      rig.harness.close()
      rig.scheduler.advance(by: .seconds(1))
      #expect(rig.label == "Leaked: ArticleScreen#1")
    }
    #expect(screens.count == 3)
    #expect(screens.allSatisfy { screen in OpenScreens.screens.contains { $0 === screen } })
    for screen in screens { OpenScreens.unregister(screen) }
  }
}
