import Dispatch
import LeakClock
import LeakDetector
import ScreenKit

// Fixtures shared by the LeakTesting suites for Swift Testing and XCTest.

/// Keeps itself alive through a stored closure once `captureSelf()` is called.
public final class ClosureHolder {
  public init() {}
  public var onChange: (() -> Void)?
  public func captureSelf() { onChange = { _ = self } }
  public func breakCycle() { onChange = nil }
}

/// A delegate target that owns its child; the child's delegate is strong or weak.
public final class Owner {
  public final class Child {
    public init() {}
    public var strongDelegate: Owner?
    public weak var weakDelegate: Owner?
  }

  public let child = Child()
  public init(strongDelegate: Bool) {
    if strongDelegate { child.strongDelegate = self } else { child.weakDelegate = self }
  }
}

/// Kept alive by work pending on a scheduler until that work runs.
public final class PendingWorker: Sendable {
  public init(scheduler: any Scheduler, delay: Duration) {
    scheduler.schedule(after: delay) { [self] in _ = self }
  }
}

/// Kept alive by a block on the real main queue until it runs.
public final class MainQueueWorker: Sendable {
  public init(delay: DispatchTimeInterval) {
    DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [self] in _ = self }
  }
}

/// A small module: a screen with a presenter and a service, wired strongly or weakly.
public final class Service {
  public init() {}
}

public final class Presenter {
  public let service: Service
  public var strongScreen: ModuleScreen?
  public weak var weakScreen: ModuleScreen?
  public init(service: Service) { self.service = service }
}

@MainActor
public final class ModuleScreen: Screen {
  public let presenter: Presenter
  public init(presenter: Presenter, strong: Bool) {
    self.presenter = presenter
    super.init(title: "Module")
    if strong { presenter.strongScreen = self } else { presenter.weakScreen = self }
  }
}

@MainActor
public func makeAndExpose(strong: Bool) -> (screen: ModuleScreen, presenter: Presenter, service: Service) {
  let service = Service()
  let presenter = Presenter(service: service)
  let screen = ModuleScreen(presenter: presenter, strong: strong)
  return (screen, presenter, service)
}

/// A screen whose refresh handler captures it strongly once `leak()` is called.
@MainActor
public final class FeedScreen: Screen {
  public var onRefresh: (() -> Void)?
  public func leak() { onRefresh = { self.title = "refreshed" } }
}

/// A window and a screen on it, wired to a detector on a manual clock.
@MainActor
public struct World {
  public let scheduler = ManualScheduler()
  public let detector: LeakDetector
  public let window: Window
  public let home = Screen(title: "Home")

  public init() {
    let detector = LeakDetector(scheduler: scheduler)
    self.detector = detector
    window = Window(
      checker: DeallocationChecker(
        expectTree: { root, children in detector.expectDeallocation(ofTree: root, children: children) },
        withdraw: { detector.withdrawExpectations(for: $0) }))
    window.rootScreen = home
  }
}
