/// A modal alert with actions, like `UIAlertController`.
///
/// ```swift
/// let alert = AlertController(title: "Delete?", message: "This cannot be undone.")
/// alert.addAction(AlertAction(title: "Cancel", style: .cancel))
/// alert.addAction(AlertAction(title: "Delete", style: .destructive) { _ in model.delete() })
/// present(alert)
/// ```
public final class AlertController: Screen {
  /// The message under the title.
  public var message: String?
  /// The actions, in the order they were added. Held strongly.
  public private(set) var actions: [AlertAction] = []

  /// Creates an alert.
  public init(title: String, message: String? = nil) {
    self.message = message
    super.init(title: title)
    presentationStyle = .overCurrentContext
  }

  /// Adds an action button.
  public func addAction(_ action: AlertAction) {
    actions.append(action)
  }

  /// Taps the action at `index`: the alert is dismissed, then the handler runs.
  public func tapAction(at index: Int) {
    guard actions.indices.contains(index) else { return }
    let action = actions[index]
    dismiss()
    action.handler?(action)
  }

  /// Taps the cancel action if there is one, else just dismisses: what Esc does.
  public func cancel() {
    if let index = actions.firstIndex(where: { $0.style == .cancel }) {
      tapAction(at: index)
    } else {
      dismiss()
    }
  }

  public override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(Label(title, identifier: "alert.title"))
    if let message { view.addSubview(Label(message, identifier: "alert.message")) }
  }
}

/// One button of an ``AlertController``, like `UIAlertAction`.
@MainActor
public final class AlertAction {
  /// How an action looks.
  public enum Style: String, Sendable {
    case `default`, cancel, destructive
  }

  /// The button title.
  public let title: String
  /// How the button looks.
  public let style: Style
  /// What a tap does; it receives the action. Held strongly.
  public var handler: ((AlertAction) -> Void)?

  /// Creates an action.
  public init(title: String, style: Style = .default, handler: ((AlertAction) -> Void)? = nil) {
    self.title = title
    self.style = style
    self.handler = handler
  }
}
