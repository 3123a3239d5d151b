import ScreenKit

extension Catalogue {
  /// `child-coordinator`: a child coordinator holds its parent strongly while the parent keeps it.
  public static let childCoordinator = Scenario(
    id: "child-coordinator",
    title: "Child coordinator holding its parent",
    pattern: "parent.childCoordinators.append(child); child.parentCoordinator = parent, not weak",
    actions: [ScenarioAction("Pay for order", "The orders coordinator starts a payment child coordinator.")],
    whyItLeaks: """
      A coordinator keeps its children in `childCoordinators` until they finish, and this child keeps \
      its parent in a strong `parentCoordinator`: a cycle. When the screen goes, both coordinators \
      stay, and every flow started from them stays too.
      """,
    fix: "Declare the back reference `weak var parentCoordinator: OrdersCoordinator?`.",
    code: #"""
      @MainActor
      class Coordinator {
        var childCoordinators: [Coordinator] = []
      }

      extension OrdersCoordinator {
        func showPayment() {
          let child = makePaymentCoordinator()
          child.parentCoordinator = self
          childCoordinators.append(child)
        }
      }

      final class PaymentCoordinator: Coordinator, PaymentFlow {  // leaklab:strong
        var parentCoordinator: OrdersCoordinator?  // leaklab:strong
      }  // leaklab:strong

      final class WeakParentPaymentCoordinator: Coordinator, PaymentFlow {  // leaklab:weak
        weak var parentCoordinator: OrdersCoordinator?  // leaklab:weak
      }  // leaklab:weak
      """#,
    expected: (strong: .leaking("OrdersCoordinator", "PaymentCoordinator"), weak: .clean),
    makeScreen: { mode, _ in OrdersScreen(coordinator: OrdersCoordinator(mode: mode)) }
  )
}

/// The screen: an order list whose flows its coordinator runs.
final class OrdersScreen: Screen, OwnedPartsProviding {
  let coordinator: OrdersCoordinator
  let statusLabel = Label("Order #1042: not paid", identifier: "orders.status")

  init(coordinator: OrdersCoordinator) {
    self.coordinator = coordinator
    super.init(title: "Orders")
  }

  /// The coordinator and the flows it started must go with the screen.
  var ownedParts: [AnyObject] { [coordinator] + coordinator.childCoordinators }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(statusLabel)
    view.addSubview(
      Button("Pay for order") { [weak self] in
        self?.coordinator.showPayment()
        self?.statusLabel.text = "Order #1042: payment started"
      })
  }
}

/// A child flow that reports back to the orders coordinator.
@MainActor
protocol PaymentFlow: Coordinator {
  var parentCoordinator: OrdersCoordinator? { get set }
}

/// Runs the orders flows; starts a payment child coordinator.
final class OrdersCoordinator: Coordinator {
  let mode: ScenarioMode

  init(mode: ScenarioMode) {
    self.mode = mode
  }

  /// The payment child in the scenario's form.
  func makePaymentCoordinator() -> any PaymentFlow {
    mode == .strong ? PaymentCoordinator() : WeakParentPaymentCoordinator()
  }
}

// leaklab:code begin
@MainActor
class Coordinator {
  var childCoordinators: [Coordinator] = []
}

extension OrdersCoordinator {
  func showPayment() {
    let child = makePaymentCoordinator()
    child.parentCoordinator = self
    childCoordinators.append(child)
  }
}

final class PaymentCoordinator: Coordinator, PaymentFlow {  // leaklab:strong
  var parentCoordinator: OrdersCoordinator?  // leaklab:strong
}  // leaklab:strong

final class WeakParentPaymentCoordinator: Coordinator, PaymentFlow {  // leaklab:weak
  weak var parentCoordinator: OrdersCoordinator?  // leaklab:weak
}  // leaklab:weak
// leaklab:code end
