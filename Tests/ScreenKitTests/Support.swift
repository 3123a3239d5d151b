import LeakClock
import LeakDetector
import ScreenKit

/// Records lifecycle callbacks as "Title.callback".
@MainActor
final class Lifecycle {
  var calls: [String] = []
  func take() -> [String] {
    defer { calls = [] }
    return calls
  }
}

@MainActor
final class RecordingScreen: Screen {
  let lifecycle: Lifecycle
  init(_ title: String, _ lifecycle: Lifecycle) {
    self.lifecycle = lifecycle
    super.init(title: title)
  }
  override func viewDidLoad() { lifecycle.calls.append("\(title).viewDidLoad") }
  override func viewWillAppear() { lifecycle.calls.append("\(title).viewWillAppear") }
  override func viewDidAppear() { lifecycle.calls.append("\(title).viewDidAppear") }
  override func viewWillDisappear() { lifecycle.calls.append("\(title).viewWillDisappear") }
  override func viewDidDisappear() { lifecycle.calls.append("\(title).viewDidDisappear") }
}

/// A window wired to a detector on a manual clock.
@MainActor
struct World {
  let scheduler = ManualScheduler()
  let detector: LeakDetector
  let window: Window

  init() {
    let detector = LeakDetector(scheduler: scheduler)
    self.detector = detector
    window = Window(
      checker: DeallocationChecker(
        expectTree: { root, children in detector.expectDeallocation(ofTree: root, children: children) },
        withdraw: { detector.withdrawExpectations(for: $0) }))
  }

  func advance(_ seconds: Int) { scheduler.advance(by: .seconds(seconds)) }
  var label: String { detector.summaryLabel }
}

/// A screen that keeps itself alive through a stored closure, as the classic bug does.
@MainActor
final class SelfRetainingScreen: Screen {
  var onRefresh: (() -> Void)?
  override func viewDidLoad() {
    view.addSubview(Label("Feed"))
    view.addSubview(Button("Refresh"))
  }
  func leak() { onRefresh = { self.title = "refreshed" } }
}
