import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `alert-action-capture` in the three published styles: the alert leaks, and
/// keeps the screen its handler uses.
@MainActor
@Suite struct AlertActionCaptureTests {
  static func breakCycle(_ alert: AlertController?) {
    for action in alert?.actions ?? [] { action.handler = nil }
  }

  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheAlertAndTheScreenAlive(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let screen = DraftsScreen(mode: mode)
      #expect(tap("Delete draft", in: screen))
      let alert = screen.presentedScreen as! AlertController
      parts.keep("DraftsScreen", screen)
      parts.keep("AlertController", alert)
      alert.tapAction(at: alert.actions.firstIndex { $0.title == "Delete" }!)
      #expect(screen.statusLabel.text == "Deleted Trip notes")
      #expect(screen.presentedScreen == nil)
    }
    #expect(parts.alive == (mode == .strong ? ["DraftsScreen", "AlertController"] : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnTheAlert(mode: ScenarioMode) {
    let rig = Rig()
    weak var alert: AlertController?
    rig.harness.open(Catalogue.alertActionCapture, mode: mode)
    rig.harness.runAction(at: 0)
    alert = rig.harness.window.topAlert
    #expect(alert?.title == "Delete draft?")
    #expect(rig.harness.window.tapAlertAction(titled: "Delete"))
    rig.harness.close()
    let failure = waitForDeallocation(of: "AlertController", on: rig.scheduler, timeout: .seconds(2)) {
      alert == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "AlertController was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: AlertController#1, DraftsScreen#1")
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
    Self.breakCycle(alert)
  }

  final class Fixture {
    weak var screen: DraftsScreen?
    weak var alert: AlertController?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheAlertAndTheScreen(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    fixture.screen = rig.harness.open(Catalogue.alertActionCapture, mode: mode) as? DraftsScreen
    rig.harness.runAction(at: 0)
    fixture.alert = rig.harness.window.topAlert
    rig.harness.close()  // cancels the alert, then pops
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["screen", "alert"] : []))
    Self.breakCycle(fixture.alert)
  }
}
