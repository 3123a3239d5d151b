// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import AVFoundation
import UIKit

/// Leaks the lint cannot see (kept in the corpus so its recall is honest):
/// AVPlayer keeps a periodic time observer's block until removeTimeObserver,
/// and a process-wide event bus keeps every subscriber's closure.
final class EventBus {
  static let shared = EventBus()
  private var subscribers: [(String) -> Void] = []

  func subscribe(_ handler: @escaping (String) -> Void) {
    subscribers.append(handler)
  }
}

final class VideoViewController: UIViewController {
  private let player = AVPlayer()
  private let timeLabel = UILabel()
  private var timeObserver: Any?

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(timeLabel)
    let interval = CMTime(seconds: 1, preferredTimescale: 600)
    timeObserver = player.addPeriodicTimeObserver(forInterval: interval, queue: .main) { time in  // leak: stored-closure
      self.timeLabel.text = "\(Int(time.seconds)) s"
    }
    EventBus.shared.subscribe { event in  // leak: stored-closure
      self.title = event
    }
  }
}
