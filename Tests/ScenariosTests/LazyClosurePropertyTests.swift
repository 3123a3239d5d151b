import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `lazy-closure-property` in the three published styles.
@MainActor
@Suite struct LazyClosurePropertyTests {
  static func breakCycle(_ screen: CartScreen?) {
    screen?.describe = { _ in "" }
  }

  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheScreenAliveOnceTheLazyClosureWasUsed(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let screen = CartScreen(mode: mode)
      parts.keep("CartScreen", screen)
      #expect(tap("Add item", in: screen))
      #expect(screen.totalLabel.text == "Items: 1, 5 EUR")
    }
    #expect(parts.alive == (mode == .strong ? ["CartScreen"] : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func anUnusedLazyClosureDoesNotLeak(mode: ScenarioMode) {
    weak var screen: CartScreen?
    do {
      let cart = CartScreen(mode: mode)
      screen = cart
      _ = cart.view
    }
    #expect(screen == nil, "the closure is made on first use; before that there is no cycle")
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnTheScreen(mode: ScenarioMode) async {
    let rig = Rig()
    weak let screen = await rig.openRunAndClose(Catalogue.lazyClosureProperty, mode: mode)
    let failure = waitForDeallocation(of: "CartScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "CartScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: CartScreen#1")
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
    Self.breakCycle(screen as? CartScreen)
  }

  final class Fixture {
    weak var screen: CartScreen?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheScreen(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    fixture.screen = rig.harness.open(Catalogue.lazyClosureProperty, mode: mode) as? CartScreen
    rig.harness.runAction(at: 0)
    rig.harness.close()
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["screen"] : []))
    Self.breakCycle(fixture.screen)
  }
}
