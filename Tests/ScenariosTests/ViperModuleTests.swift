import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `viper-module` in the three published styles: the view goes away, the
/// presenter, interactor and router stay.
@MainActor
@Suite struct ViperModuleTests {
  static let leakedParts = ["presenter", "interactor", "router"]

  /// The SoundCloud module test: make and expose the parts, keep weak
  /// references, drop the module, assert every part is gone.
  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsThePresenterInteractorAndRouterAlive(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let module = ProfileModuleFactory(mode: mode).makeAndExpose()
      parts.keep("view", module.view)
      parts.keep("presenter", module.presenter)
      parts.keep("interactor", module.interactor)
      parts.keep("router", module.router)
      #expect(tap("Load profile", in: module.view))
      #expect(module.view.nameLabel.text == "Ada Lovelace")
    }
    #expect(parts.alive == (mode == .strong ? Self.leakedParts : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnThePresenter(mode: ScenarioMode) {
    let rig = Rig()
    weak var presenter: ProfilePresenter?
    weak var view: Screen?
    do {
      let screen = rig.harness.open(Catalogue.viperModule, mode: mode) as! ProfileScreen
      presenter = screen.presenter
      view = screen
    }
    rig.harness.runAction(at: 0)
    rig.harness.close()
    let failure = waitForDeallocation(of: "ProfilePresenter", on: rig.scheduler, timeout: .seconds(2)) {
      presenter == nil
    }
    #expect(view == nil, "the view itself is never the problem")
    switch mode {
    case .strong:
      #expect(failure == "ProfilePresenter was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: ProfilePresenter#1, StrongOutputProfileInteractor#1, ProfileRouter#1")
      presenter?.interactor.output = nil
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }

  final class Fixture {
    weak var view: ProfileScreen?
    weak var presenter: ProfilePresenter?
    weak var interactor: (any ProfileInteractorInput)?
    weak var router: ProfileRouter?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesEveryPartButTheView(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    do {
      let module = ProfileModuleFactory(mode: mode).makeAndExpose()
      fixture.view = module.view
      fixture.presenter = module.presenter
      fixture.interactor = module.interactor
      fixture.router = module.router
      rig.harness.navigation.push(module.view)
    }
    rig.harness.window.goBack()
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? Self.leakedParts : []))
    fixture.interactor?.output = nil
  }
}
