// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A weak capture: the block does nothing if the screen has gone.
import UIKit

final class UploadStatusViewController: UIViewController {
  private let toastLabel = UILabel()
  private var retryAction: (() -> Void)?

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(toastLabel)
    retryAction = { [unowned self] in self.showToast("Retrying…") }
  }

  func showToast(_ text: String) {
    toastLabel.text = text
    toastLabel.isHidden = false
    DispatchQueue.main.asyncAfter(deadline: .now() + 3) { [weak self] in
      self?.toastLabel.isHidden = true
    }
  }
}
