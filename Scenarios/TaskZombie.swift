import Foundation
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
  /// the task stops the wait at once, on the thread that cancels (a real
  /// request would be cancelled): no other job has to run first.
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
        pending.wait(
          with: continuation, work: mainQueue.asyncAfter(.seconds(1)) { pending.resume(with: answer) })
      }
    } onCancel: {
      if !wasCancelled { pending.resume(with: answer) }
    }
  }
}

/// One request's answer: given when the server answers, or when the task
/// waiting for it is cancelled, whichever comes first (from any thread).
final class PendingAnswer: @unchecked Sendable {
  // Plain stored properties under a lock (not a `Mutex`): the detector's
  // reflection sees what the pending answer holds.
  private var continuation: CheckedContinuation<String, Never>?
  private var work: ScheduledWork?
  private var answered: String?
  private let lock = NSLock()

  /// Waits for the answer on `continuation`; `work` gives it when the server answers.
  func wait(with continuation: CheckedContinuation<String, Never>, work: ScheduledWork) {
    lock.lock()
    if let answered {
      lock.unlock()
      work.cancel()
      continuation.resume(returning: answered)
      return
    }
    self.continuation = continuation
    self.work = work
    lock.unlock()
  }

  /// Gives the answer (once; a second answer is dropped).
  func resume(with answer: String) {
    lock.lock()
    guard answered == nil else { return lock.unlock() }
    answered = answer
    let (continuation, work) = (self.continuation, self.work)
    self.continuation = nil
    self.work = nil
    lock.unlock()
    work?.cancel()
    continuation?.resume(returning: answer)
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
