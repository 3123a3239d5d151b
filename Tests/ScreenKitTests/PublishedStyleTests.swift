import LeakClock
import LeakDetector
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

/// The three published leak-test styles, written out by hand on ScreenKit.
/// LeakTesting turns each into a reusable helper.
@MainActor
@Suite struct PublishedStyleTests {
  /// A small module: a screen with a presenter and a service, wired strongly or weakly.
  final class Service {
    var completion: (() -> Void)?
  }

  final class Presenter {
    let service: Service
    var screen: ModuleScreen?
    weak var weakScreen: ModuleScreen?
    init(service: Service) { self.service = service }
  }

  final class ModuleScreen: Screen {
    let presenter: Presenter
    init(presenter: Presenter, strong: Bool) {
      self.presenter = presenter
      super.init(title: "Module")
      if strong { presenter.screen = self } else { presenter.weakScreen = self }
    }
  }

  static func makeModule(strong: Bool) -> (ModuleScreen, Presenter, Service) {
    let service = Service()
    let presenter = Presenter(service: service)
    let screen = ModuleScreen(presenter: presenter, strong: strong)
    return (screen, presenter, service)
  }

  // MARK: (a) Module test: keep weak references to the parts, drop the root

  @Test(arguments: [false, true])
  func moduleTestFindsEveryPartStillAlive(strong: Bool) {
    weak var weakScreen: ModuleScreen?
    weak var weakPresenter: Presenter?
    weak var weakService: Service?
    do {
      let (screen, presenter, service) = Self.makeModule(strong: strong)
      weakScreen = screen
      weakPresenter = presenter
      weakService = service
    }
    let alive = [weakScreen as AnyObject?, weakPresenter, weakService].compactMap { $0 }.count
    #expect(alive == (strong ? 3 : 0))
    weakScreen?.presenter.screen = nil  // clean up the leak for the next test
  }

  // MARK: (b) Assert deallocation: present, dismiss, wait on the manual clock

  @Test(arguments: [false, true])
  func assertDeallocationAfterDismiss(strong: Bool) {
    let world = World()
    let home = Screen(title: "Home")
    world.window.rootScreen = home
    weak var weakScreen: ModuleScreen?
    do {
      let (screen, _, service) = Self.makeModule(strong: strong)
      home.present(screen)
      service.completion = nil
      weakScreen = screen
    }
    home.dismiss()
    let failure = waitForDeallocation(of: "ModuleScreen", on: world.scheduler, timeout: .seconds(2)) {
      weakScreen == nil
    }
    if strong {
      #expect(failure == "ModuleScreen was not deallocated within 2.0 s")
      #expect(world.label == "Leaked: ModuleScreen#1")
    } else {
      #expect(failure == nil)
      #expect(world.label == "No issues detected")
    }
    weakScreen?.presenter.screen = nil
  }

  // MARK: (c) Fixture check: after teardown every stored property is nil

  final class Fixture {
    var screen: ModuleScreen?
    var presenter: Presenter?
    var service: Service?
    var name = "fixture"

    /// Stored optional properties that still hold a value, found with Mirror.
    var nonNilProperties: [String] {
      Mirror(reflecting: self).children.compactMap { child in
        guard let label = child.label else { return nil }
        let value = Mirror(reflecting: child.value)
        guard value.displayStyle == .optional else { return nil }
        return value.children.isEmpty ? nil : label
      }
    }
  }

  @Test(arguments: [false, true])
  func fixtureCheckNamesPropertiesThatOutliveTeardown(strong: Bool) {
    let fixture = Fixture()
    let (screen, presenter, service) = Self.makeModule(strong: strong)
    fixture.screen = screen
    fixture.presenter = presenter
    fixture.service = service
    // Teardown as a careless test would write it: only the screen is released.
    fixture.screen = nil
    #expect(fixture.nonNilProperties == ["presenter", "service"])
    fixture.presenter = nil
    fixture.service = nil
    #expect(fixture.nonNilProperties.isEmpty)
    // In the strong form the presenter still holds the screen after teardown.
    #expect((presenter.screen != nil) == strong)
    presenter.screen = nil
  }
}
