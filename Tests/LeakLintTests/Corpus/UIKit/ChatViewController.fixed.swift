// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import UIKit

final class ChatViewController: UIViewController {
  private let inputBar = UIView()
  private var bottomConstraint: NSLayoutConstraint?
  private var keyboardObservers: [NSObjectProtocol] = []

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(inputBar)
  }

  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    let center = NotificationCenter.default
    keyboardObservers.append(
      center.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) {
        [weak self] note in
        self?.moveInputBar(with: note, showing: true)
      })
    keyboardObservers.append(
      center.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) {
        note in
        self.moveInputBar(with: note, showing: false)
      })
  }

  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    keyboardObservers.forEach { NotificationCenter.default.removeObserver($0) }
    keyboardObservers.removeAll()
  }

  private func moveInputBar(with note: Notification, showing: Bool) {
    let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect ?? .zero
    bottomConstraint?.constant = showing ? -frame.height : 0
    UIView.animate(withDuration: 0.25) { self.view.layoutIfNeeded() }
  }
}
