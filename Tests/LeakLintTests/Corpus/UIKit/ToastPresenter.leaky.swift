// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// An unowned capture in a block the main queue runs later: a crash if the screen has gone.
import UIKit

final class UploadStatusViewController: UIViewController {
  private let toastLabel = UILabel()

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(toastLabel)
  }

  func showToast(_ text: String) {
    toastLabel.text = text
    toastLabel.isHidden = false
    DispatchQueue.main.asyncAfter(deadline: .now() + 3) { [unowned self] in  // leak: unowned-capture
      self.toastLabel.isHidden = true
    }
  }
}
