// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import UIKit

final class DocumentViewController: UIViewController {
  private var documentName = "Untitled"
  private let titleLabel = UILabel()

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(titleLabel)
    navigationItem.rightBarButtonItem = UIBarButtonItem(
      title: "Rename", image: nil, primaryAction: UIAction { [weak self] _ in self?.showRename() })
  }

  private func showRename() {
    let alert = UIAlertController(title: "Rename", message: nil, preferredStyle: .alert)
    alert.addTextField { field in field.text = self.documentName }
    let save = UIAlertAction(title: "Save", style: .default) { [unowned alert] _ in
      guard let name = alert.textFields?.first?.text, !name.isEmpty else { return }
      self.rename(to: name)
    }
    alert.addAction(save)
    alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
    present(alert, animated: true)
  }

  private func rename(to name: String) {
    documentName = name
    titleLabel.text = name
  }
}
