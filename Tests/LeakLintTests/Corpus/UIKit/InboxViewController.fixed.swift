// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A block observer is removed by its token.
import UIKit

extension Notification.Name {
  static let inboxDidSync = Notification.Name("InboxDidSync")
}

final class InboxViewController: UITableViewController {
  private var messages: [String] = []
  private var syncObserver: NSObjectProtocol?

  override func viewDidLoad() {
    super.viewDidLoad()
    syncObserver = NotificationCenter.default.addObserver(forName: .inboxDidSync, object: nil, queue: .main) { note in
      self.messages = note.userInfo?["messages"] as? [String] ?? []
      self.tableView.reloadData()
    }
  }

  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    if let syncObserver {
      NotificationCenter.default.removeObserver(syncObserver)
      self.syncObserver = nil
    }
  }
}
