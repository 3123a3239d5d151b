// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// The same observer in an object made for each screen: each one leaks.
import UIKit

final class ReachabilityMonitor {
  private(set) var isOnline = true
  private var handlers: [(Bool) -> Void] = []

  init() {
    NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { _ in  // leak: notification-observer
      self.refresh()
    }
    handlers.append { online in self.isOnline = online }  // leak: stored-closure
  }

  func refresh() {
    handlers.forEach { $0(isOnline) }
  }
}

final class DownloadsViewController: UIViewController {
  private let monitor = ReachabilityMonitor()

  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    monitor.refresh()
  }
}
