import LeakClock
import ScreenKit

extension Catalogue {
  /// `task-zombie`: `[weak self]` frees the screen, but the task's loop keeps polling for nobody.
  public static let taskZombie = Scenario(
    id: "task-zombie",
    title: "Task that outlives its screen",
    pattern: "task = Task { [weak self] in while true { … self?.show(…) } }: freed screen, endless loop",
    actions: [ScenarioAction("Follow match", "Starts a task that polls the scores every second.")],
    whyItLeaks: """
      `[weak self]` lets the screen go, so no leak detector reports anything, yet the task's loop \
      never ends: it keeps polling the server every second for a screen that no longer exists. \
      Nothing stops a task but its own end or `cancel()`.
      """,
    fix: "Loop `while !Task.isCancelled` and cancel the task when the screen goes: `task?.cancel()`.",
    code: #"""
      private(set) var task: Task<Void, Never>?

      func followMatch() {
        task?.cancel()
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          task = Task { [weak self, feed] in  // leaklab:strong
            while true {  // leaklab:strong
              let score = await feed.nextScore()  // leaklab:strong
              self?.show(score)  // leaklab:strong
            }  // leaklab:strong
          }  // leaklab:strong
        case .weak:  // leaklab:toggle
          task = Task { [weak self, feed] in  // leaklab:weak
            while !Task.isCancelled {  // leaklab:weak
              let score = await feed.nextScore()  // leaklab:weak
              self?.show(score)  // leaklab:weak
            }  // leaklab:weak
          }  // leaklab:weak
        }  // leaklab:toggle
      }

      override func viewDidDisappear() {
        super.viewDidDisappear()
        if mode == .weak {  // leaklab:toggle
          task?.cancel()  // leaklab:weak
        }  // leaklab:toggle
      }
      """#,
    detectorBlindSpot: "the task keeps polling after the close (the log shows each request)",
    expected: (strong: .clean, weak: .clean),
    makeScreen: { mode, environment in
      LiveScoresScreen(
        mode: mode, feed: ScoreFeed(mainQueue: environment.mainQueue, activity: environment.activity))
    }
  )
}

/// A server's live score, one request a second.
@MainActor
final class ScoreFeed {
  let mainQueue: MainQueue
  let activity: ActivityLog?
  private(set) var requests = 0

  init(mainQueue: MainQueue, activity: ActivityLog? = nil) {
    self.mainQueue = mainQueue
    self.activity = activity
  }

  /// Asks the server for the score; it answers a second later. Cancelling
  /// the task stops the wait at once (a real request would be cancelled).
  func nextScore() async -> String {
    requests += 1
    activity?.record(self, "requested the score")
    let answer = "2 : \(requests / 3)"
    let pending = PendingAnswer()
    // A loop that ignores cancellation (`while true`) still waits for each
    // answer: only a wait under way when the task is cancelled ends early.
    let wasCancelled = Task.isCancelled
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        pending.continuation = continuation
        pending.work = mainQueue.asyncAfter(.seconds(1)) { pending.resume(with: answer) }
      }
    } onCancel: {
      if !wasCancelled { Task { @MainActor in pending.resume(with: answer) } }
    }
  }
}

/// One request's answer: given when the server answers, or when the task
/// waiting for it is cancelled, whichever comes first.
@MainActor
final class PendingAnswer {
  var continuation: CheckedContinuation<String, Never>?
  var work: ScheduledWork?

  func resume(with answer: String) {
    work?.cancel()
    work = nil
    continuation?.resume(returning: answer)
    continuation = nil
  }
}

/// The screen: a match score, refreshed while the match is followed.
final class LiveScoresScreen: Screen {
  let mode: ScenarioMode
  let feed: ScoreFeed
  let scoreLabel = Label("Not following", identifier: "scores.score")

  init(mode: ScenarioMode, feed: ScoreFeed) {
    self.mode = mode
    self.feed = feed
    super.init(title: "Live scores")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(scoreLabel)
    view.addSubview(Button("Follow match") { [weak self] in self?.followMatch() })
  }

  func show(_ score: String) {
    scoreLabel.text = "Score: \(score)"
  }

  // leaklab:code begin
  private(set) var task: Task<Void, Never>?

  func followMatch() {
    task?.cancel()
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      task = Task { [weak self, feed] in  // leaklab:strong
        while true {  // leaklab:strong
          let score = await feed.nextScore()  // leaklab:strong
          self?.show(score)  // leaklab:strong
        }  // leaklab:strong
      }  // leaklab:strong
    case .weak:  // leaklab:toggle
      task = Task { [weak self, feed] in  // leaklab:weak
        while !Task.isCancelled {  // leaklab:weak
          let score = await feed.nextScore()  // leaklab:weak
          self?.show(score)  // leaklab:weak
        }  // leaklab:weak
      }  // leaklab:weak
    }  // leaklab:toggle
  }

  override func viewDidDisappear() {
    super.viewDidDisappear()
    if mode == .weak {  // leaklab:toggle
      task?.cancel()  // leaklab:weak
    }  // leaklab:toggle
  }
  // leaklab:code end
}
