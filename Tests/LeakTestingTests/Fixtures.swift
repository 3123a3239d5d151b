import Dispatch
import LeakClock
import LeakDetector
import ScreenKit

/// Keeps itself alive through a stored closure once `captureSelf()` is called.
final class ClosureHolder {
  var onChange: (() -> Void)?
  func captureSelf() { onChange = { _ = self } }
  func breakCycle() { onChange = nil }
}

/// A delegate target that owns its child; the child's delegate is strong or weak.
final class Owner {
  final class Child {
    var strongDelegate: Owner?
    weak var weakDelegate: Owner?
  }

  let child = Child()
  init(strongDelegate: Bool) {
    if strongDelegate { child.strongDelegate = self } else { child.weakDelegate = self }
  }
}

/// Kept alive by work pending on a scheduler until that work runs.
final class PendingWorker: Sendable {
  init(scheduler: any Scheduler, delay: Duration) {
    scheduler.schedule(after: delay) { [self] in _ = self }
  }
}

/// Kept alive by a block on the real main queue until it runs.
final class MainQueueWorker: Sendable {
  init(delay: DispatchTimeInterval) {
    DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [self] in _ = self }
  }
}

/// A small module: a screen with a presenter and a service, wired strongly or weakly.
final class Service {}

final class Presenter {
  let service: Service
  var strongScreen: ModuleScreen?
  weak var weakScreen: ModuleScreen?
  init(service: Service) { self.service = service }
}

@MainActor
final class ModuleScreen: Screen {
  let presenter: Presenter
  init(presenter: Presenter, strong: Bool) {
    self.presenter = presenter
    super.init(title: "Module")
    if strong { presenter.strongScreen = self } else { presenter.weakScreen = self }
  }
}

@MainActor
func makeAndExpose(strong: Bool) -> (screen: ModuleScreen, presenter: Presenter, service: Service) {
  let service = Service()
  let presenter = Presenter(service: service)
  let screen = ModuleScreen(presenter: presenter, strong: strong)
  return (screen, presenter, service)
}

/// A screen whose refresh handler captures it strongly once `leak()` is called.
@MainActor
final class FeedScreen: Screen {
  var onRefresh: (() -> Void)?
  func leak() { onRefresh = { self.title = "refreshed" } }
}

/// A window and a screen on it, wired to a detector on a manual clock.
@MainActor
struct World {
  let scheduler = ManualScheduler()
  let detector: LeakDetector
  let window: Window
  let home = Screen(title: "Home")

  init() {
    let detector = LeakDetector(scheduler: scheduler)
    self.detector = detector
    window = Window(
      checker: DeallocationChecker(
        expectTree: { root, children in detector.expectDeallocation(ofTree: root, children: children) },
        withdraw: { detector.withdrawExpectations(for: $0) }))
    window.rootScreen = home
  }
}
