// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import UIKit

protocol Coordinator: AnyObject {
  var childCoordinators: [Coordinator] { get set }
  func start()
}

final class AppCoordinator: Coordinator {
  var childCoordinators: [Coordinator] = []
  let navigationController: UINavigationController

  init(navigationController: UINavigationController) {
    self.navigationController = navigationController
  }

  func start() {
    let settings = SettingsCoordinator(navigationController: navigationController)
    settings.parentCoordinator = self
    childCoordinators.append(settings)
    settings.start()
  }

  func childDidFinish(_ child: Coordinator) {
    navigationController.popToRootViewController(animated: true)
  }
}

final class SettingsCoordinator: Coordinator {
  var childCoordinators: [Coordinator] = []
  var parentCoordinator: AppCoordinator?  // leak: strong-back-reference
  let navigationController: UINavigationController

  init(navigationController: UINavigationController) {
    self.navigationController = navigationController
  }

  func start() {
    let screen = SettingsViewController()
    screen.coordinator = self
    navigationController.pushViewController(screen, animated: true)
  }

  func finish() {
    parentCoordinator?.childDidFinish(self)
  }
}

final class SettingsViewController: UIViewController {
  weak var coordinator: SettingsCoordinator?

  override func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    if isMovingFromParent { coordinator?.finish() }
  }
}
