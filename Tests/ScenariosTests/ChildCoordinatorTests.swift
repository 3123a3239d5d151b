import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `child-coordinator`: the parent keeps its children, the child its parent.
@MainActor
@Suite struct ChildCoordinatorTests {
  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsBothCoordinatorsAliveInTheLeakyForm(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let coordinator = OrdersCoordinator(mode: mode)
      coordinator.showPayment()
      parts.keep("OrdersCoordinator", coordinator)
      parts.keep("PaymentCoordinator", coordinator.childCoordinators[0])
    }
    #expect(parts.alive == (mode == .strong ? ["OrdersCoordinator", "PaymentCoordinator"] : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func theDetectorReportsBothCoordinatorsWithTheirCycle(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.childCoordinator, mode: mode) as? OrdersScreen
    weak let coordinator = screen?.coordinator
    rig.harness.runAction(at: 0)
    #expect(screen?.statusLabel.text == "Order #1042: payment started")
    rig.harness.close()
    let failure = waitForDeallocation(of: "OrdersCoordinator", on: rig.scheduler, timeout: .seconds(2)) {
      coordinator == nil
    }
    #expect(screen == nil, "the screen itself goes in both forms")
    switch mode {
    case .strong:
      #expect(failure == "OrdersCoordinator was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: OrdersCoordinator#1, PaymentCoordinator#1")
      coordinator?.childCoordinators = []
      #expect(coordinator == nil)
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }
}
