// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// removeObserver(self, name:) does not remove a block observer: only its token does.
import UIKit

extension Notification.Name {
  static let inboxDidSync = Notification.Name("InboxDidSync")
}

final class InboxViewController: UITableViewController {
  private var messages: [String] = []

  override func viewDidLoad() {
    super.viewDidLoad()
    NotificationCenter.default.addObserver(forName: .inboxDidSync, object: nil, queue: .main) { note in  // leak: notification-observer
      self.messages = note.userInfo?["messages"] as? [String] ?? []
      self.tableView.reloadData()
    }
  }

  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    NotificationCenter.default.removeObserver(self, name: .inboxDidSync, object: nil)
  }
}
