import LeakClock
import ScreenKit

extension Catalogue {
  /// `repeating-timer`: a repeating timer that captures the screen and is never invalidated.
  public static let repeatingTimer = Scenario(
    id: "repeating-timer",
    title: "Repeating timer never invalidated",
    pattern: "scheduledTimer(withTimeInterval:) { self.tick() } without invalidate()",
    actions: [ScenarioAction("Start", "Starts a timer that ticks every second.")],
    whyItLeaks: """
      A repeating timer keeps its block until it is invalidated, and the run loop (here, the \
      scheduler) keeps the timer. The block captures the screen, so the screen ticks on, unseen, \
      forever.
      """,
    fix: "Capture `[weak self]` in the block and call `timer?.invalidate()` in `viewDidDisappear`.",
    code: #"""
      private(set) var timer: RepeatingWork?

      func start() {
        timer?.invalidate()
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          timer = mainQueue.scheduledTimer(withTimeInterval: .seconds(1)) {  // leaklab:strong
            self.tick()  // leaklab:strong
          }  // leaklab:strong
        case .weak:  // leaklab:toggle
          timer = mainQueue.scheduledTimer(withTimeInterval: .seconds(1)) { [weak self] in  // leaklab:weak
            self?.tick()  // leaklab:weak
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
    expected: (strong: .leaking("StopwatchScreen"), weak: .clean),
    makeScreen: { mode, environment in
      StopwatchScreen(mode: mode, mainQueue: environment.mainQueue, activity: environment.activity)
    }
  )
}

/// The screen: a stopwatch that counts seconds.
final class StopwatchScreen: Screen {
  let mode: ScenarioMode
  let mainQueue: MainQueue
  let activity: ActivityLog?
  let elapsedLabel = Label("0 s", identifier: "stopwatch.elapsed")
  private(set) var ticks = 0

  init(mode: ScenarioMode, mainQueue: MainQueue, activity: ActivityLog? = nil) {
    self.mode = mode
    self.mainQueue = mainQueue
    self.activity = activity
    super.init(title: "Stopwatch")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(elapsedLabel)
    view.addSubview(Button("Start") { [weak self] in self?.start() })
  }

  func tick() {
    ticks += 1
    elapsedLabel.text = "\(ticks) s"
    activity?.record(self, "ticked")
  }

  // leaklab:code begin
  private(set) var timer: RepeatingWork?

  func start() {
    timer?.invalidate()
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      timer = mainQueue.scheduledTimer(withTimeInterval: .seconds(1)) {  // leaklab:strong
        self.tick()  // leaklab:strong
      }  // leaklab:strong
    case .weak:  // leaklab:toggle
      timer = mainQueue.scheduledTimer(withTimeInterval: .seconds(1)) { [weak self] in  // leaklab:weak
        self?.tick()  // leaklab:weak
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
