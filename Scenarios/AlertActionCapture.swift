import ScreenKit

extension Catalogue {
  /// `alert-action-capture`: an alert action's handler that uses the alert.
  public static let alertActionCapture = Scenario(
    id: "alert-action-capture",
    title: "Alert action capturing its alert",
    pattern: "an AlertAction handler reads the alert it belongs to",
    actions: [
      ScenarioAction("Delete draft", "Shows a confirmation alert; the script taps its Delete button.")
    ],
    whyItLeaks: """
      The alert owns its actions and each action owns its handler; a handler that uses `alert` \
      captures it strongly: a cycle. The handler also uses `self`, so the leaked alert keeps the \
      screen alive too.
      """,
    fix: "Capture the alert weakly or unowned: `{ [unowned alert] _ in … }`.",
    code: #"""
      func confirmDelete() {
        let alert = AlertController(title: "Delete draft?", message: draftName)
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        let delete: (AlertAction) -> Void
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          delete = { _ in self.deleteDraft(named: alert.message) }  // leaklab:strong
        case .weak:  // leaklab:toggle
          delete = { [unowned alert] _ in self.deleteDraft(named: alert.message) }  // leaklab:weak
        }  // leaklab:toggle
        alert.addAction(AlertAction(title: "Delete", style: .destructive, handler: delete))
        present(alert)
      }
      """#,
    script: [.action(0), .alertAction("Delete")],
    expected: (strong: .leaking("AlertController", "DraftsScreen"), weak: .clean),
    makeScreen: { mode, _ in DraftsScreen(mode: mode) }
  )
}

/// The screen: a draft that can be deleted after a confirmation.
final class DraftsScreen: Screen {
  let mode: ScenarioMode
  let draftName = "Trip notes"
  let statusLabel = Label("Draft: Trip notes", identifier: "drafts.status")

  init(mode: ScenarioMode) {
    self.mode = mode
    super.init(title: "Drafts")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(statusLabel)
    view.addSubview(Button("Delete draft") { [weak self] in self?.confirmDelete() })
  }

  func deleteDraft(named name: String?) {
    statusLabel.text = "Deleted \(name ?? "draft")"
  }

  // leaklab:code begin
  func confirmDelete() {
    let alert = AlertController(title: "Delete draft?", message: draftName)
    alert.addAction(AlertAction(title: "Cancel", style: .cancel))
    let delete: (AlertAction) -> Void
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      delete = { _ in self.deleteDraft(named: alert.message) }  // leaklab:strong
    case .weak:  // leaklab:toggle
      delete = { [unowned alert] _ in self.deleteDraft(named: alert.message) }  // leaklab:weak
    }  // leaklab:toggle
    alert.addAction(AlertAction(title: "Delete", style: .destructive, handler: delete))
    present(alert)
  }
  // leaklab:code end
}
