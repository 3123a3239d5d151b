// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// The task is cancelled when the screen goes away.
import UIKit

final class ScoreFeed {
  let updates: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation

  init() {
    (updates, continuation) = AsyncStream.makeStream(of: String.self)
  }

  func publish(_ score: String) { continuation.yield(score) }
}

final class LiveScoreViewController: UIViewController {
  private let feed: ScoreFeed
  private let scoreLabel = UILabel()
  private var updatesTask: Task<Void, Never>?

  init(feed: ScoreFeed) {
    self.feed = feed
    super.init(nibName: nil, bundle: nil)
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(scoreLabel)
    let updates = feed.updates
    updatesTask = Task { [weak self] in
      for await score in updates {
        self?.scoreLabel.text = score
      }
    }
  }

  override func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    updatesTask?.cancel()
  }
}
