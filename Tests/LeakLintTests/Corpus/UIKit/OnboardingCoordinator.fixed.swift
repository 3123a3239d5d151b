// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// Child coordinators come from a factory; the sign-up child holds its parent weakly.
import UIKit

protocol Coordinator: AnyObject {
  var children: [Coordinator] { get set }
  func start()
}

protocol SignUpFlow: Coordinator {
  var onboarding: OnboardingCoordinator? { get set }
}

final class CoordinatorFactory {
  let navigationController: UINavigationController

  init(navigationController: UINavigationController) {
    self.navigationController = navigationController
  }

  func makeSignUp() -> any SignUpFlow {
    SignUpCoordinator(navigationController: navigationController)
  }

  func makeTour() -> TourCoordinator {
    TourCoordinator(navigationController: navigationController)
  }
}

final class OnboardingCoordinator: Coordinator {
  var children: [Coordinator] = []
  private let factory: CoordinatorFactory

  init(factory: CoordinatorFactory) {
    self.factory = factory
  }

  func start() {
    let tour = factory.makeTour()
    children.append(tour)
    tour.start()
  }

  func showSignUp() {
    let signUp = factory.makeSignUp()
    signUp.onboarding = self
    children.append(signUp)
    signUp.start()
  }

  var onFinish: (() -> Void)?

  func signUpDidFinish() {
    onFinish?()
  }
}

final class SignUpCoordinator: SignUpFlow {
  var children: [Coordinator] = []
  weak var onboarding: OnboardingCoordinator?
  private let navigationController: UINavigationController

  init(navigationController: UINavigationController) {
    self.navigationController = navigationController
  }

  func start() {
    let screen = UIViewController()
    screen.title = "Create your account"
    navigationController.pushViewController(screen, animated: true)
  }

  func finish() {
    onboarding?.signUpDidFinish()
  }
}

final class TourCoordinator: Coordinator {
  var children: [Coordinator] = []
  private let navigationController: UINavigationController

  init(navigationController: UINavigationController) {
    self.navigationController = navigationController
  }

  func start() {
    navigationController.pushViewController(UIViewController(), animated: false)
  }
}

final class HomeCoordinator: Coordinator {
  var children: [Coordinator] = []
  private let navigationController: UINavigationController

  init(navigationController: UINavigationController) {
    self.navigationController = navigationController
  }

  func start() {
    navigationController.setViewControllers([UIViewController()], animated: true)
  }
}

final class ProfileCoordinator: Coordinator {
  var children: [Coordinator] = []
  private let navigationController: UINavigationController

  init(navigationController: UINavigationController) {
    self.navigationController = navigationController
  }

  func start() {
    navigationController.pushViewController(UIViewController(), animated: true)
  }
}
