// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// Objects that live as long as the app: what they keep for good is not a leak.
import UIKit

final class ReachabilityMonitor {
  static let shared = ReachabilityMonitor()
  private(set) var isOnline = true
  private var handlers: [(Bool) -> Void] = []

  private init() {
    NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { _ in
      self.refresh()
    }
    handlers.append { online in self.isOnline = online }
  }

  func refresh() {
    handlers.forEach { $0(isOnline) }
  }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?
  private var badgeTimer: Timer?

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    badgeTimer = Timer.scheduledTimer(withTimeInterval: 60, repeats: true) { _ in
      self.updateBadge()
    }
    ReachabilityMonitor.shared.refresh()
    return true
  }

  private func updateBadge() {
    UIApplication.shared.applicationIconBadgeNumber = 0
  }
}
