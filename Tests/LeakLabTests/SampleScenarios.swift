import LeakClock
import Scenarios
import ScreenKit

/// Small scenarios built for these tests, so they do not depend on the real catalogue.
enum SampleScenarios {
  static let all = [closure, alert, delayed]

  /// A button whose action stores a closure capturing the screen: a cycle in strong mode.
  static let closure = Scenario(
    id: "sample-closure", title: "Closure capture", pattern: "A stored closure captures self strongly.",
    actions: [ScenarioAction("Load", "Stores a completion closure")],
    whyItLeaks: "The screen owns onLoad, and onLoad captures the screen: a cycle that popping cannot break.",
    fix: "Capture [weak self] in the closure.",
    code: """
      func load() {
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          onLoad = { self.title = "Loaded" }  // leaklab:strong
        case .weak:  // leaklab:toggle
          onLoad = { [weak self] in self?.title = "Loaded" }  // leaklab:weak
        }  // leaklab:toggle
        onLoad?()
      }
      """,
    expected: (strong: .leaking("SampleFeedScreen"), weak: .clean),
    makeScreen: { mode, _ in SampleFeedScreen(mode: mode) })

  /// An alert whose action captures the alert.
  static let alert = Scenario(
    id: "sample-alert", title: "Alert action capture",
    pattern: "An alert action's handler captures the alert.",
    actions: [ScenarioAction("Show alert", "Presents an alert with Cancel and Delete")],
    whyItLeaks: "The alert owns its actions, and the Delete handler captures the alert.",
    fix: "Capture [weak alert] in the handler.",
    code: """
      let alert = AlertController(title: "Delete post?")
      alert.addAction(AlertAction(title: "Cancel", style: .cancel))
      alert.addAction(AlertAction(title: "Delete") { _ in alert.message = nil })  // leaklab:strong
      alert.addAction(AlertAction(title: "Delete") { [weak alert] _ in alert?.message = nil })  // leaklab:weak
      present(alert)
      """,
    expected: (strong: .leaking("AlertController"), weak: .clean),
    makeScreen: { mode, _ in SampleAlertScreen(mode: mode) })

  /// Work scheduled ten seconds ahead on the main queue, capturing the screen.
  static let delayed = Scenario(
    id: "sample-delayed", title: "Delayed dispatch", pattern: "asyncAfter keeps self alive until it runs.",
    actions: [ScenarioAction("Sync", "Schedules work in 10 s")],
    whyItLeaks: "The main queue holds the block, and the block holds the screen, for ten seconds.",
    fix: "Capture [weak self] in the block.",
    code: """
      mainQueue.asyncAfter(.seconds(10)) { self.title = "Synced" }  // leaklab:strong
      mainQueue.asyncAfter(.seconds(10)) { [weak self] in self?.title = "Synced" }  // leaklab:weak
      """,
    expected: (strong: .leaking("SampleSyncScreen", resolvedAfter: .seconds(10)), weak: .clean),
    makeScreen: { mode, environment in SampleSyncScreen(mode: mode, environment: environment) })
}

final class SampleFeedScreen: Screen {
  let mode: ScenarioMode
  var onLoad: (() -> Void)?

  init(mode: ScenarioMode) {
    self.mode = mode
    super.init(title: "Feed")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(Label("Latest posts"))
    view.addSubview(Button("Load") { [weak self] in self?.load() })
  }

  func load() {
    switch mode {
    case .strong: onLoad = { self.title = "Loaded" }
    case .weak: onLoad = { [weak self] in self?.title = "Loaded" }
    }
    onLoad?()
  }
}

final class SampleAlertScreen: Screen {
  let mode: ScenarioMode

  init(mode: ScenarioMode) {
    self.mode = mode
    super.init(title: "Posts")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(Label("A post you may delete"))
    view.addSubview(Button("Show alert") { [weak self] in self?.showAlert() })
  }

  func showAlert() {
    let alert = AlertController(title: "Delete post?", message: "This cannot be undone.")
    alert.addAction(AlertAction(title: "Cancel", style: .cancel))
    switch mode {
    case .strong:
      alert.addAction(AlertAction(title: "Delete", style: .destructive) { _ in alert.message = nil })
    case .weak:
      alert.addAction(
        AlertAction(title: "Delete", style: .destructive) { [weak alert] _ in alert?.message = nil })
    }
    present(alert)
  }
}

final class SampleSyncScreen: Screen {
  let mode: ScenarioMode
  let environment: ScenarioEnvironment

  init(mode: ScenarioMode, environment: ScenarioEnvironment) {
    self.mode = mode
    self.environment = environment
    super.init(title: "Sync")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(Label("Not synced"))
    view.addSubview(Button("Sync") { [weak self] in self?.sync() })
  }

  func sync() {
    switch mode {
    case .strong: environment.mainQueue.asyncAfter(.seconds(10)) { self.title = "Synced" }
    case .weak: environment.mainQueue.asyncAfter(.seconds(10)) { [weak self] in self?.title = "Synced" }
    }
  }
}
