import Foundation
import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `notification-observer` in the three published styles, and the observer's removal.
@MainActor
@Suite struct NotificationObserverTests {
  @Test(arguments: ScenarioMode.allCases)
  func postingTheNotificationVisiblyRefreshesTheScreen(mode: ScenarioMode) {
    let rig = Rig()
    let screen = rig.harness.open(Catalogue.notificationObserver, mode: mode) as! InboxScreen
    #expect(rig.harness.runAction(at: 0))
    #expect(rig.harness.runAction(at: 0))
    #expect(screen.statusLabel.text == "Refreshed 2×")
    rig.harness.close()
    screen.breakCycleForTesting()
  }

  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheScreenAliveAndTheObserverRemovedOnlyWhenFixed(mode: ScenarioMode) {
    let center = NotificationCenter()
    let parts = WeakParts()
    do {
      let screen = InboxScreen(mode: mode, center: center)
      _ = screen.view
      parts.keep("InboxScreen", screen)
      parts.keep("observer", screen.observer!)
      center.post(name: .inboxDidChange, object: nil)
      #expect(screen.refreshCount == 1)
    }
    // The fixed screen's isolated deinit removed the observer: the center let go of the token.
    #expect(parts.alive == (mode == .strong ? ["InboxScreen", "observer"] : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnTheScreen(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.notificationObserver, mode: mode)
    rig.harness.runAction(at: 0)
    rig.harness.close()
    let failure = waitForDeallocation(of: "InboxScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "InboxScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: InboxScreen#1")
      // Removing the observer breaks the leak.
      (screen as? InboxScreen)?.breakCycleForTesting()
      #expect(screen == nil)
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }

  final class Fixture {
    weak var screen: InboxScreen?
    weak var observer: AnyObject?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheScreenAndItsObserver(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    do {
      let screen = rig.harness.open(Catalogue.notificationObserver, mode: mode) as! InboxScreen
      fixture.screen = screen
      fixture.observer = screen.observer
    }
    rig.harness.close()
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["screen", "observer"] : []))
    fixture.screen?.breakCycleForTesting()
  }
}
