// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import AVFoundation
import UIKit

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
    timeObserver = player.addPeriodicTimeObserver(forInterval: interval, queue: .main) { [weak self] time in
      self?.timeLabel.text = "\(Int(time.seconds)) s"
    }
    EventBus.shared.subscribe { [weak self] event in
      self?.title = event
    }
  }
}
