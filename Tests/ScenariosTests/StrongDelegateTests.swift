import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `strong-delegate` in the three published styles.
@MainActor
@Suite struct StrongDelegateTests {
  static func form(of screen: Screen) -> PaymentForm? {
    screen.view.allViews.lazy.compactMap { $0 as? PaymentForm }.first
  }

  static func breakCycle(_ screen: Screen?) {
    guard let screen, let form = form(of: screen) as? StrongDelegatePaymentForm else { return }
    form.delegate = nil
  }

  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheScreenAndItsFormAlive(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let screen = CheckoutScreen(mode: mode)
      let form = Self.form(of: screen)!
      parts.keep("CheckoutScreen", screen)
      parts.keep("PaymentForm", form)
      #expect(tap("Pay", in: screen))
      #expect(screen.statusLabel.text == "Paid")
    }
    #expect(parts.alive == (mode == .strong ? ["CheckoutScreen", "PaymentForm"] : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnTheScreen(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.strongDelegate, mode: mode)
    rig.harness.runAction(at: 0)
    rig.harness.close()
    let failure = waitForDeallocation(of: "CheckoutScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "CheckoutScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: CheckoutScreen#1")
      #expect(
        rig.harness.detector.report.openLeaks.first?.folded.contains("StrongDelegatePaymentForm#1") == true)
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
    Self.breakCycle(screen)
  }

  final class Fixture {
    weak var screen: CheckoutScreen?
    weak var form: PaymentForm?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheScreenAndTheForm(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    do {
      let screen = rig.harness.open(Catalogue.strongDelegate, mode: mode) as! CheckoutScreen
      fixture.screen = screen
      fixture.form = Self.form(of: screen)
    }
    rig.harness.close()
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["screen", "form"] : []))
    Self.breakCycle(fixture.screen)
  }
}
