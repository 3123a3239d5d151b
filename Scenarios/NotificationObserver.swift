import Foundation
import ScreenKit

extension Catalogue {
  /// `notification-observer`: a block observer that captures the screen.
  public static let notificationObserver = Scenario(
    id: "notification-observer",
    title: "NotificationCenter block observer",
    pattern: "addObserver(forName:object:queue:using:) with a block that captures self",
    actions: [ScenarioAction("Post notification", "Posts .inboxDidChange; the screen refreshes.")],
    whyItLeaks: """
      The notification center keeps an observer's block until `removeObserver` is called, and the \
      block captures the screen. Removing the observer in `deinit` cannot help: `deinit` never runs \
      while the center keeps the screen alive.
      """,
    fix: "Capture `[weak self]` in the block, and remove the observer when the screen goes away.",
    code: #"""
      private(set) var observer: (any NSObjectProtocol)?

      private func observeInbox() {
        let onChange: @Sendable (Notification) -> Void
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          onChange = { _ in MainActor.assumeIsolated { self.refresh() } }  // leaklab:strong
        case .weak:  // leaklab:toggle
          onChange = { [weak self] _ in MainActor.assumeIsolated { self?.refresh() } }  // leaklab:weak
        }  // leaklab:toggle
        observer = center.addObserver(forName: .inboxDidChange, object: nil, queue: nil, using: onChange)
      }

      isolated deinit {
        if let observer { center.removeObserver(observer) }
      }
      """#,
    markedLineAction: nil,
    inARealApp: """
      Here the scenario injects its own notification center. In a real app it is \
      `NotificationCenter.default`, a global: a root that keeps the block, and the screen, for the life \
      of the process.
      """,
    expected: (strong: .leaking("InboxScreen"), weak: .clean),
    makeScreen: { mode, environment in
      InboxScreen(mode: mode, center: environment.notificationCenter)
    }
  )
}

extension Notification.Name {
  /// Posted when the inbox changed.
  static let inboxDidChange = Notification.Name("LeakLab.inboxDidChange")
}

/// The screen: refreshes when the inbox changes.
final class InboxScreen: Screen {
  let mode: ScenarioMode
  let center: NotificationCenter
  let statusLabel = Label("Not refreshed yet", identifier: "inbox.status")
  private(set) var refreshCount = 0

  init(mode: ScenarioMode, center: NotificationCenter) {
    self.mode = mode
    self.center = center
    super.init(title: "Inbox")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(statusLabel)
    view.addSubview(Button("Post notification") { [weak self] in self?.postInboxChange() })
    observeInbox()
  }

  func postInboxChange() {
    center.post(name: .inboxDidChange, object: nil)
  }

  /// Removes the observer without leaving it to `deinit`, to break the
  /// leaky form's cycle in tests.
  ///
  /// Removing the observer releases the block inside the notification
  /// center's lock; if that was the last reference to the screen, its `deinit`
  /// calls `removeObserver` again and swift-foundation traps ("Recursive call
  /// to lock Mutex"). Clearing `observer` first keeps `deinit` out of it.
  func breakCycleForTesting() {
    guard let token = observer else { return }
    observer = nil
    center.removeObserver(token)
  }

  func refresh() {
    refreshCount += 1
    statusLabel.text = "Refreshed \(refreshCount)×"
  }

  // leaklab:code begin
  private(set) var observer: (any NSObjectProtocol)?

  private func observeInbox() {
    let onChange: @Sendable (Notification) -> Void
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      onChange = { _ in MainActor.assumeIsolated { self.refresh() } }  // leaklab:strong
    case .weak:  // leaklab:toggle
      onChange = { [weak self] _ in MainActor.assumeIsolated { self?.refresh() } }  // leaklab:weak
    }  // leaklab:toggle
    observer = center.addObserver(forName: .inboxDidChange, object: nil, queue: nil, using: onChange)
  }

  isolated deinit {
    if let observer { center.removeObserver(observer) }
  }
  // leaklab:code end
}
