/// A rectangle of UI in a view tree, like `UIView`.
///
/// Views own their subviews strongly and point to their superview weakly.
/// ``removeFromSuperviewExpectingDeallocation()`` also asks the window's leak
/// checker to expect the removed subtree to deallocate.
@MainActor
open class View {
  /// The views drawn inside this one, in order.
  public private(set) var subviews: [View] = []
  /// The view that contains this one.
  public private(set) weak var superview: View?
  /// A name for tests and scripts to find the view by.
  public var identifier: String?
  /// Whether the view is drawn.
  public var isHidden = false
  /// The screen whose root view this is (set on root views only).
  weak var owningScreen: Screen?

  /// Creates an empty view.
  public init(identifier: String? = nil) {
    self.identifier = identifier
  }

  /// Adds `view` as the last subview, removing it from its old superview first.
  public func addSubview(_ view: View) {
    precondition(view !== self, "a view cannot be its own subview")
    view.removeFromSuperview()
    subviews.append(view)
    view.superview = self
  }

  /// Removes the view from its superview.
  public func removeFromSuperview() {
    guard let parent = superview else { return }
    parent.subviews.removeAll { $0 === self }
    superview = nil
  }

  /// Removes the view and expects it and its subviews to deallocate.
  public func removeFromSuperviewExpectingDeallocation() {
    let checker = window?.checker
    removeFromSuperview()
    checker?.expectTree(self) { DeallocationChecker.treeChildren(of: $0) }
  }

  /// The screen that shows this view, found through the root view.
  public var screen: Screen? {
    var node: View = self
    while let parent = node.superview { node = parent }
    return node.owningScreen
  }

  /// The window that shows this view, if it is on screen.
  public var window: Window? { screen?.window }

  /// This view and every view below it, depth first.
  public var allViews: [View] {
    [self] + subviews.flatMap(\.allViews)
  }

  /// The view's kind and text for a front end; ``Label`` and ``Button`` override it.
  open var content: ViewContent { .container }
}

/// What a view shows, for a front end that draws without knowing the classes.
public enum ViewContent: Sendable, Equatable {
  /// A view that only groups others.
  case container
  /// Static text.
  case label(String)
  /// A tappable button.
  case button(title: String, isEnabled: Bool)
}

/// A view that shows text, like `UILabel`.
public final class Label: View {
  /// The text shown.
  public var text: String

  /// Creates a label.
  public init(_ text: String, identifier: String? = nil) {
    self.text = text
    super.init(identifier: identifier)
  }

  public override var content: ViewContent { .label(text) }
}

/// A view that runs an action when tapped, like `UIButton`.
public final class Button: View {
  /// The title shown.
  public var title: String
  /// Whether taps run the action.
  public var isEnabled = true
  /// What a tap does. Held strongly, like a target-action closure.
  public var action: (@MainActor () -> Void)?

  /// Creates a button.
  public init(_ title: String, identifier: String? = nil, action: (@MainActor () -> Void)? = nil) {
    self.title = title
    self.action = action
    super.init(identifier: identifier)
  }

  /// Runs the action, as a user's tap would.
  public func tap() {
    guard isEnabled, !isHidden else { return }
    action?()
  }

  public override var content: ViewContent { .button(title: title, isEnabled: isEnabled) }
}
