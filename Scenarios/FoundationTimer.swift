import Foundation
import ScreenKit

extension Catalogue {
  /// `foundation-timer`: a real Foundation `Timer` on the run loop whose block captures the screen.
  ///
  /// The timer is Foundation's, on the current (main) thread's run loop, not
  /// on the scenario's scheduler: the leak is about who owns the screen, which
  /// does not depend on when the timer fires. Headless, the screen is freed or
  /// not at the close whatever the clock; live, the run loop fires it every second.
  public static let foundationTimer = Scenario(
    id: "foundation-timer",
    title: "Foundation Timer on the run loop",
    pattern: "Timer.scheduledTimer(withTimeInterval:repeats:) { self… } on the run loop, never invalidated",
    actions: [ScenarioAction("Start", "Schedules a Foundation Timer that refreshes the score every second.")],
    whyItLeaks: """
      A scheduled timer is added to the run loop, which keeps it until it is invalidated, and the \
      timer keeps its block. The block captures the screen, so Foundation's run loop, a true \
      root in C memory, keeps the screen alive after it closed.
      """,
    fix: "Capture `[weak self]` in the block and call `timer?.invalidate()` in `viewDidDisappear`.",
    code: #"""
      private(set) var timer: Timer?

      func startRefreshing() {
        timer?.invalidate()
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in  // leaklab:strong
            MainActor.assumeIsolated { self.refresh() }  // leaklab:strong
          }  // leaklab:strong
        case .weak:  // leaklab:toggle
          timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in  // leaklab:weak
            MainActor.assumeIsolated { self?.refresh() }  // leaklab:weak
          }  // leaklab:weak
        }  // leaklab:toggle
      }

      override func viewDidDisappear() {
        super.viewDidDisappear()
        if mode == .weak {  // leaklab:toggle
          timer?.invalidate()  // leaklab:weak
        }  // leaklab:toggle
      }
      """#,
    expected: (strong: .leaking("ScoreboardScreen"), weak: .clean),
    makeScreen: { mode, environment in ScoreboardScreen(mode: mode, activity: environment.activity) }
  )
}

/// The screen: a live score, refreshed every second by a Foundation `Timer`.
final class ScoreboardScreen: Screen {
  let mode: ScenarioMode
  let scoreLabel = Label("Not refreshed yet", identifier: "scoreboard.refreshes")
  let activity: ActivityLog?
  private(set) var refreshes = 0

  init(mode: ScenarioMode, activity: ActivityLog? = nil) {
    self.mode = mode
    self.activity = activity
    super.init(title: "Scoreboard")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(scoreLabel)
    view.addSubview(Button("Start") { [weak self] in self?.startRefreshing() })
  }

  func refresh() {
    refreshes += 1
    scoreLabel.text = "Refreshed \(refreshes)×"
    activity?.record(self, "refreshed the score")
  }

  // leaklab:code begin
  private(set) var timer: Timer?

  func startRefreshing() {
    timer?.invalidate()
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in  // leaklab:strong
        MainActor.assumeIsolated { self.refresh() }  // leaklab:strong
      }  // leaklab:strong
    case .weak:  // leaklab:toggle
      timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in  // leaklab:weak
        MainActor.assumeIsolated { self?.refresh() }  // leaklab:weak
      }  // leaklab:weak
    }  // leaklab:toggle
  }

  override func viewDidDisappear() {
    super.viewDidDisappear()
    if mode == .weak {  // leaklab:toggle
      timer?.invalidate()  // leaklab:weak
    }  // leaklab:toggle
  }
  // leaklab:code end
}
