// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A coordinator keeps its child coordinator, and the child keeps its parent.
import UIKit

final class AppCoordinator {
  let navigationController: UINavigationController
  private var checkout: CheckoutCoordinator?

  init(navigationController: UINavigationController) {
    self.navigationController = navigationController
  }

  func showCheckout(cartID: String) {
    let child = CheckoutCoordinator(parent: self, navigationController: navigationController)
    checkout = child
    child.start(cartID: cartID)
  }

  func checkoutDidFinish() {
    navigationController.popToRootViewController(animated: true)
  }
}

final class CheckoutCoordinator {
  private let parent: AppCoordinator  // leak: strong-back-reference
  private let navigationController: UINavigationController

  init(parent: AppCoordinator, navigationController: UINavigationController) {
    self.parent = parent
    self.navigationController = navigationController
  }

  func start(cartID: String) {
    let screen = UIViewController()
    screen.title = "Cart \(cartID)"
    navigationController.pushViewController(screen, animated: true)
  }

  func finish() {
    parent.checkoutDidFinish()
  }
}
