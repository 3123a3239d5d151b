import Dispatch
import ScreenKit

extension Catalogue {
  /// `dispatch-source-timer`: a real `DispatchSourceTimer` whose event handler captures the screen.
  ///
  /// The source is libdispatch's, on the main queue, not on the scenario's
  /// scheduler: the leak is about who owns the screen, which does not depend
  /// on when the handler runs. Headless, the screen is freed or not at the
  /// close whatever the clock; live, the source fires every second.
  public static let dispatchSourceTimer = Scenario(
    id: "dispatch-source-timer",
    title: "DispatchSourceTimer never cancelled",
    pattern: "DispatchSource.makeTimerSource with setEventHandler { self… }, resumed, never cancelled",
    actions: [ScenarioAction("Start", "Resumes a dispatch timer source that polls the upload every second.")],
    whyItLeaks: """
      A resumed timer source is kept by libdispatch until it is cancelled, and the source keeps its \
      event handler. The handler captures the screen, so libdispatch's own C structures keep the \
      screen alive after it closed.
      """,
    fix: "Capture `[weak self]` in the handler and call `timer?.cancel()` in `viewDidDisappear`.",
    code: #"""
      private(set) var timer: (any DispatchSourceTimer)?

      func startPolling() {
        timer?.cancel()
        let source = DispatchSource.makeTimerSource(queue: .main)
        source.schedule(deadline: .now() + 1, repeating: 1)
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          source.setEventHandler { MainActor.assumeIsolated { self.poll() } }  // leaklab:strong
        case .weak:  // leaklab:toggle
          source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.poll() } }  // leaklab:weak
        }  // leaklab:toggle
        source.resume()
        timer = source
      }

      override func viewDidDisappear() {
        super.viewDidDisappear()
        if mode == .weak {  // leaklab:toggle
          timer?.cancel()  // leaklab:weak
        }  // leaklab:toggle
      }
      """#,
    expected: (strong: .leaking("UploadProgressScreen"), weak: .clean),
    makeScreen: { mode, environment in UploadProgressScreen(mode: mode, activity: environment.activity) }
  )
}

/// The screen: an upload's progress, polled every second by a dispatch timer source.
final class UploadProgressScreen: Screen {
  let mode: ScenarioMode
  let progressLabel = Label("Not polled yet", identifier: "upload.polls")
  let activity: ActivityLog?
  private(set) var polls = 0

  init(mode: ScenarioMode, activity: ActivityLog? = nil) {
    self.mode = mode
    self.activity = activity
    super.init(title: "Upload")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(progressLabel)
    view.addSubview(Button("Start") { [weak self] in self?.startPolling() })
  }

  func poll() {
    polls += 1
    progressLabel.text = "Polled \(polls)×"
    activity?.record(self, "polled the upload")
  }

  // leaklab:code begin
  private(set) var timer: (any DispatchSourceTimer)?

  func startPolling() {
    timer?.cancel()
    let source = DispatchSource.makeTimerSource(queue: .main)
    source.schedule(deadline: .now() + 1, repeating: 1)
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      source.setEventHandler { MainActor.assumeIsolated { self.poll() } }  // leaklab:strong
    case .weak:  // leaklab:toggle
      source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.poll() } }  // leaklab:weak
    }  // leaklab:toggle
    source.resume()
    timer = source
  }

  override func viewDidDisappear() {
    super.viewDidDisappear()
    if mode == .weak {  // leaklab:toggle
      timer?.cancel()  // leaklab:weak
    }  // leaklab:toggle
  }
  // leaklab:code end
}
