/// The root of what is on screen, like `UIWindow`.
///
/// ```swift
/// let window = Window(checker: checker)
/// window.rootScreen = NavigationStack(root: HomeScreen())
/// print(window.snapshot().title)
/// ```
@MainActor
public final class Window {
  /// Where closed screens are reported; `nil` to check nothing.
  public let checker: DeallocationChecker?

  /// Creates an empty window.
  public init(checker: DeallocationChecker? = nil) {
    self.checker = checker
  }

  /// The screen at the root; replacing it expects the old one to deallocate.
  public var rootScreen: Screen? {
    didSet {
      guard oldValue !== rootScreen else { return }
      if let old = oldValue {
        old.presentedScreen?.dismiss()
        if old.isVisible { old.runAppearance(appearing: false) }
        old.hostingWindow = nil
        checker?.expectTreeOf(old)
      }
      if let new = rootScreen {
        checker?.withdrawTreeOf(new)
        new.hostingWindow = self
        new.runAppearance(appearing: true)
      }
    }
  }

  /// Every screen in the presentation chain from the root, root first.
  public var presentationChain: [Screen] {
    guard let root = rootScreen else { return [] }
    return Array(sequence(first: root, next: \.presentedScreen))
  }

  /// The screen a user would interact with: the top of the chain, inside navigation stacks.
  public var topScreen: Screen? {
    presentationChain.last.map(Self.content(of:))
  }

  /// The alert on top, if one is shown.
  public var topAlert: AlertController? { presentationChain.last as? AlertController }

  /// The screen whose content is drawn under any alert.
  public var contentScreen: Screen? {
    presentationChain.last(where: { $0.presentationStyle == .fullScreen }).map(Self.content(of:))
  }

  static func content(of screen: Screen) -> Screen {
    if let stack = screen as? NavigationStack, let top = stack.topScreen { return content(of: top) }
    return screen
  }

  // MARK: User input

  /// Goes back as Esc would: cancels the alert, dismisses a modal, or pops.
  /// Returns whether anything closed.
  @discardableResult
  public func goBack() -> Bool {
    if let alert = topAlert {
      alert.cancel()
      return true
    }
    let chain = presentationChain
    if chain.count > 1, let top = chain.last {
      top.dismiss()
      return true
    }
    guard let root = rootScreen else { return false }
    return deepestStack(in: root)?.pop() != nil
  }

  private func deepestStack(in screen: Screen) -> NavigationStack? {
    guard let stack = screen as? NavigationStack else { return nil }
    if let top = stack.topScreen, let inner = deepestStack(in: top), inner.screens.count > 1 { return inner }
    return stack.screens.count > 1 ? stack : nil
  }

  /// Taps the first visible, enabled button titled `title` on the content screen.
  @discardableResult
  public func tapButton(titled title: String) -> Bool {
    guard topAlert == nil, let screen = contentScreen else { return false }
    let button = screen.view.allViews.lazy.compactMap { $0 as? Button }
      .first { $0.title == title && $0.isEnabled && !$0.isHidden }
    button?.tap()
    return button != nil
  }

  /// Taps the alert action titled `title`.
  @discardableResult
  public func tapAlertAction(titled title: String) -> Bool {
    guard let alert = topAlert, let index = alert.actions.firstIndex(where: { $0.title == title }) else {
      return false
    }
    alert.tapAction(at: index)
    return true
  }
}
