// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A list that opens an editor: keeping the editor while it points back is a cycle.
import UIKit

protocol NoteEditorDelegate: AnyObject {
  func noteEditor(_ editor: NoteEditorViewController, didSave text: String)
}

final class NoteEditorViewController: UIViewController {
  var delegate: NoteEditorDelegate?  // leak: strong-back-reference
  private let textView = UITextView()

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(textView)
    navigationItem.rightBarButtonItem = UIBarButtonItem(
      barButtonSystemItem: .save, target: self, action: #selector(save))
  }

  @objc private func save() {
    delegate?.noteEditor(self, didSave: textView.text)
    dismiss(animated: true)
  }
}

final class NotesListViewController: UITableViewController, NoteEditorDelegate {
  private var notes: [String] = []
  private var editor: NoteEditorViewController?

  @objc func addNote() {
    let editor = NoteEditorViewController()
    editor.delegate = self
    self.editor = editor
    present(UINavigationController(rootViewController: editor), animated: true)
  }

  func noteEditor(_ editor: NoteEditorViewController, didSave text: String) {
    notes.append(text)
    tableView.reloadData()
  }
}
