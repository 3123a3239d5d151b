/// A plain description of what a window shows, for a front end that draws it
/// without knowing the screen classes.
public struct ScreenSnapshot: Sendable, Equatable {
  /// The content screen's title.
  public var title: String
  /// How many screens deep the navigation is (1 at a stack's root).
  public var navigationDepth: Int
  /// The title of the screen a back button returns to, if any.
  public var backTitle: String?
  /// Whether the content screen was presented modally.
  public var isModal: Bool
  /// The visible views, depth first.
  public var views: [ViewSnapshot]
  /// The alert shown on top, if any.
  public var alert: AlertSnapshot?

  /// The buttons among ``views``, in order.
  public var buttons: [String] {
    views.compactMap {
      if case .button(let title, _) = $0.content { title } else { nil }
    }
  }
}

/// One view in a ``ScreenSnapshot``.
public struct ViewSnapshot: Sendable, Equatable {
  /// Nesting depth below the root view (root's subviews are 0).
  public var depth: Int
  /// What the view shows.
  public var content: ViewContent
  /// The view's identifier.
  public var identifier: String?

  /// Creates a view description.
  public init(depth: Int, content: ViewContent, identifier: String? = nil) {
    self.depth = depth
    self.content = content
    self.identifier = identifier
  }
}

/// An alert in a ``ScreenSnapshot``.
public struct AlertSnapshot: Sendable, Equatable {
  /// The alert's title.
  public var title: String
  /// The alert's message.
  public var message: String?
  /// Action titles and styles, in order.
  public var actions: [(title: String, style: AlertAction.Style)]

  public static func == (lhs: AlertSnapshot, rhs: AlertSnapshot) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message
      && lhs.actions.map(\.title) == rhs.actions.map(\.title)
      && lhs.actions.map(\.style) == rhs.actions.map(\.style)
  }
}

extension Window {
  /// What the window shows now.
  public func snapshot() -> ScreenSnapshot? {
    guard let screen = contentScreen else { return nil }
    let stack = screen.navigationStack
    let depth = stack?.screens.count ?? 1
    let backTitle = depth > 1 ? stack?.screens[depth - 2].title : nil
    var views: [ViewSnapshot] = []
    func collect(_ view: View, depth: Int) {
      for subview in view.subviews where !subview.isHidden {
        views.append(ViewSnapshot(depth: depth, content: subview.content, identifier: subview.identifier))
        collect(subview, depth: depth + 1)
      }
    }
    collect(screen.view, depth: 0)
    let alert = topAlert.map { alert in
      AlertSnapshot(
        title: alert.title, message: alert.message, actions: alert.actions.map { ($0.title, $0.style) })
    }
    let isModal =
      presentationChain.count > 1
      && presentationChain.last(where: { $0.presentationStyle == .fullScreen }) !== rootScreen
    return ScreenSnapshot(
      title: screen.title, navigationDepth: depth, backTitle: backTitle, isModal: isModal, views: views,
      alert: alert)
  }
}
