import ScreenKit

extension Catalogue {
  /// `viper-module`: a VIPER module whose interactor holds its output strongly.
  public static let viperModule = Scenario(
    id: "viper-module",
    title: "VIPER module with a strong output",
    pattern: "presenter → interactor strongly, interactor.output → presenter strongly",
    actions: [ScenarioAction("Load profile", "The presenter asks the interactor, which answers its output.")],
    whyItLeaks: """
      The presenter owns the interactor and the interactor owns its output, the presenter: a cycle \
      that also keeps the router. The view holds the presenter but nobody holds the view, so the \
      screen goes away and a screen check alone sees nothing; a module test does.
      """,
    fix: "Declare the back reference `weak var output: (any ProfileInteractorOutput)?`.",
    code: #"""
      @MainActor
      protocol ProfileInteractorOutput: AnyObject {
        func interactorDidLoadProfile(name: String)
      }

      @MainActor
      protocol ProfileInteractorInput: AnyObject {
        var output: (any ProfileInteractorOutput)? { get set }
      }

      extension ProfileInteractorInput {
        func loadProfile() {
          output?.interactorDidLoadProfile(name: "Ada Lovelace")
        }
      }

      final class StrongOutputProfileInteractor: ProfileInteractorInput {  // leaklab:strong
        var output: (any ProfileInteractorOutput)?  // leaklab:strong
      }  // leaklab:strong

      final class WeakOutputProfileInteractor: ProfileInteractorInput {  // leaklab:weak
        weak var output: (any ProfileInteractorOutput)?  // leaklab:weak
      }  // leaklab:weak
      """#,
    markedLineAction: nil,
    expected: (
      strong: .leaking("ProfilePresenter", "StrongOutputProfileInteractor", "ProfileRouter"), weak: .clean
    ),
    makeScreen: { mode, _ in ProfileModuleFactory(mode: mode).make() }
  )
}

/// The parts of a profile module, exposed for tests (the makeAndExpose pattern).
@MainActor
struct ProfileModule {
  let view: ProfileScreen
  let presenter: ProfilePresenter
  let interactor: any ProfileInteractorInput
  let router: ProfileRouter
}

/// Builds the profile module: view, presenter, interactor, router.
@MainActor
struct ProfileModuleFactory {
  let mode: ScenarioMode

  /// The module's view, ready to push.
  func make() -> ProfileScreen {
    makeAndExpose().view
  }

  /// The module and each of its parts.
  func makeAndExpose() -> ProfileModule {
    let interactor: any ProfileInteractorInput =
      mode == .strong ? StrongOutputProfileInteractor() : WeakOutputProfileInteractor()
    let router = ProfileRouter()
    let presenter = ProfilePresenter(interactor: interactor, router: router)
    let view = ProfileScreen(presenter: presenter)
    presenter.view = view
    router.viewController = view
    interactor.output = presenter
    return ProfileModule(view: view, presenter: presenter, interactor: interactor, router: router)
  }
}

/// The view: shows the profile, forwards taps to the presenter.
final class ProfileScreen: Screen, OwnedPartsProviding {
  let presenter: ProfilePresenter
  let nameLabel = Label("Profile not loaded", identifier: "profile.name")

  init(presenter: ProfilePresenter) {
    self.presenter = presenter
    super.init(title: "Profile")
  }

  var ownedParts: [AnyObject] { [presenter, presenter.interactor, presenter.router] }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(nameLabel)
    view.addSubview(Button("Load profile") { [weak self] in self?.presenter.loadTapped() })
  }

  func show(name: String) {
    nameLabel.text = name
  }
}

/// Talks to the view, the interactor and the router.
@MainActor
final class ProfilePresenter: ProfileInteractorOutput {
  weak var view: ProfileScreen?
  let interactor: any ProfileInteractorInput
  let router: ProfileRouter

  init(interactor: any ProfileInteractorInput, router: ProfileRouter) {
    self.interactor = interactor
    self.router = router
  }

  func loadTapped() {
    interactor.loadProfile()
  }

  func interactorDidLoadProfile(name: String) {
    view?.show(name: name)
  }
}

/// Navigates away from the profile.
@MainActor
final class ProfileRouter {
  weak var viewController: Screen?
}

// leaklab:code begin
@MainActor
protocol ProfileInteractorOutput: AnyObject {
  func interactorDidLoadProfile(name: String)
}

@MainActor
protocol ProfileInteractorInput: AnyObject {
  var output: (any ProfileInteractorOutput)? { get set }
}

extension ProfileInteractorInput {
  func loadProfile() {
    output?.interactorDidLoadProfile(name: "Ada Lovelace")
  }
}

final class StrongOutputProfileInteractor: ProfileInteractorInput {  // leaklab:strong
  var output: (any ProfileInteractorOutput)?  // leaklab:strong
}  // leaklab:strong

final class WeakOutputProfileInteractor: ProfileInteractorInput {  // leaklab:weak
  weak var output: (any ProfileInteractorOutput)?  // leaklab:weak
}  // leaklab:weak
// leaklab:code end
