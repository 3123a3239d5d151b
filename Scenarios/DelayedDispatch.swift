import ScreenKit

extension Catalogue {
  /// `delayed-dispatch`: a block scheduled ten seconds ahead that captures the screen.
  public static let delayedDispatch = Scenario(
    id: "delayed-dispatch",
    title: "Delayed dispatch",
    pattern: "mainQueue.asyncAfter(10 s) { self.… } keeps self until the block runs",
    actions: [ScenarioAction("Sync in 10 s", "Schedules a status update ten seconds from now.")],
    whyItLeaks: """
      The queue keeps a scheduled block, and what it captures, until the block runs. Closed before \
      then, the screen stays alive for the rest of the delay: a temporary leak that resolves by \
      itself, after work done for a screen nobody sees.
      """,
    fix: "Capture `[weak self]`: `asyncAfter(.seconds(10)) { [weak self] in self?.… }`.",
    code: #"""
      func syncLater() {
        statusLabel.text = "Syncing…"
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          mainQueue.asyncAfter(.seconds(10)) { self.statusLabel.text = "Synced" }  // leaklab:strong
        case .weak:  // leaklab:toggle
          mainQueue.asyncAfter(.seconds(10)) { [weak self] in self?.statusLabel.text = "Synced" }  // leaklab:weak
        }  // leaklab:toggle
      }
      """#,
    inARealApp: """
      Here the scenario injects its main queue. In a real app it is `DispatchQueue.main`, a global root: \
      the pending block, and the screen it captures, are held from it until the block runs.
      """,
    expected: (strong: .leaking("SyncScreen", resolvedAfter: .seconds(10)), weak: .clean),
    makeScreen: { mode, environment in SyncScreen(mode: mode, mainQueue: environment.mainQueue) }
  )
}

/// The screen: schedules a status update.
final class SyncScreen: Screen {
  let mode: ScenarioMode
  let mainQueue: MainQueue
  let statusLabel = Label("Not synced", identifier: "sync.status")

  init(mode: ScenarioMode, mainQueue: MainQueue) {
    self.mode = mode
    self.mainQueue = mainQueue
    super.init(title: "Sync")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(statusLabel)
    view.addSubview(Button("Sync in 10 s") { [weak self] in self?.syncLater() })
  }

  // leaklab:code begin
  func syncLater() {
    statusLabel.text = "Syncing…"
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      mainQueue.asyncAfter(.seconds(10)) { self.statusLabel.text = "Synced" }  // leaklab:strong
    case .weak:  // leaklab:toggle
      mainQueue.asyncAfter(.seconds(10)) { [weak self] in self?.statusLabel.text = "Synced" }  // leaklab:weak
    }  // leaklab:toggle
  }
  // leaklab:code end
}
