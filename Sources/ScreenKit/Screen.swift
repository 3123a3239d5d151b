/// A screen of an app, like `UIViewController`.
///
/// Subclass it and build the view tree in ``viewDidLoad()``. A screen that
/// leaves the hierarchy — popped, dismissed, removed from its parent, replaced
/// as the window's root — hands itself, its child screens, its presented
/// screen and its views to the window's leak checker.
///
/// ```swift
/// final class ProfileScreen: Screen {
///   override func viewDidLoad() {
///     super.viewDidLoad()
///     view.addSubview(Label("Hello"))
///     view.addSubview(Button("Reload") { [weak self] in self?.reload() })
///   }
/// }
/// ```
@MainActor
open class Screen {
  /// How a presented screen covers its presenter.
  public enum PresentationStyle: Sendable {
    /// The presenter disappears underneath.
    case fullScreen
    /// The presenter stays visible (alerts).
    case overCurrentContext
  }

  /// The title shown in the navigation bar.
  open var title: String
  /// How this screen covers its presenter when presented.
  open var presentationStyle: PresentationStyle = .fullScreen

  private var rootView: View?
  /// The container screen this one is a child of (a navigation stack, say).
  public internal(set) weak var parent: Screen?
  /// Child screens, in order.
  public internal(set) var children: [Screen] = []
  /// The screen this one presented modally. Held strongly.
  public internal(set) var presentedScreen: Screen?
  /// The screen that presented this one.
  public internal(set) weak var presentingScreen: Screen?
  /// Set on the window's root screen only.
  weak var hostingWindow: Window?
  /// Whether the screen is between `viewDidAppear` and `viewWillDisappear`.
  public internal(set) var isVisible = false

  /// Creates a screen with a title.
  public init(title: String = "") {
    self.title = title
  }

  // MARK: The view

  /// The root view, loaded on first use (``loadView()`` then ``viewDidLoad()``).
  public var view: View {
    get {
      if let rootView { return rootView }
      loadView()
      if rootView == nil { setRootView(View()) }
      viewDidLoad()
      return rootView!
    }
    set { setRootView(newValue) }
  }

  /// The root view if it has been loaded.
  public var viewIfLoaded: View? { rootView }

  private func setRootView(_ newView: View) {
    rootView?.owningScreen = nil
    rootView = newView
    newView.owningScreen = self
  }

  /// Creates the root view; the default makes a plain ``View``.
  open func loadView() { view = View() }
  /// Called once, after the root view is loaded.
  open func viewDidLoad() {}
  /// Called before the screen comes on screen.
  open func viewWillAppear() {}
  /// Called after the screen came on screen.
  open func viewDidAppear() {}
  /// Called before the screen leaves the screen.
  open func viewWillDisappear() {}
  /// Called after the screen left the screen.
  open func viewDidDisappear() {}

  // MARK: Where the screen is

  /// The window showing this screen, found through parents and presenters.
  public var window: Window? {
    if let hostingWindow { return hostingWindow }
    if let parent { return parent.window }
    return presentingScreen?.window
  }

  /// The nearest navigation stack this screen is in.
  public var navigationStack: NavigationStack? {
    var node = parent
    while let current = node {
      if let stack = current as? NavigationStack { return stack }
      node = current.parent
    }
    return nil
  }

  /// Children that are on screen when this screen is; all children by default.
  open var visibleChildren: [Screen] { children }

  // MARK: Children

  /// Makes `child` a child screen.
  public func addChild(_ child: Screen) {
    child.removeFromParent(expectingDeallocation: false)
    children.append(child)
    child.parent = self
    window?.checker?.withdrawTreeOf(child)
    if isVisible { child.runAppearance(appearing: true) }
  }

  /// Removes the screen from its parent and expects it to deallocate.
  public func removeFromParent() {
    removeFromParent(expectingDeallocation: true)
  }

  func removeFromParent(expectingDeallocation: Bool) {
    guard let parent else { return }
    let checker = window?.checker
    if isVisible { runAppearance(appearing: false) }
    parent.children.removeAll { $0 === self }
    self.parent = nil
    if expectingDeallocation { checker?.expectTreeOf(self) }
  }

  // MARK: Presenting

  /// Presents `screen` modally on top of everything this screen's window shows.
  public func present(_ screen: Screen) {
    let host = topPresenter
    host.presentedScreen = screen
    screen.presentingScreen = host
    window?.checker?.withdrawTreeOf(screen)
    guard host.isVisible else { return }
    if screen.presentationStyle == .fullScreen {
      host.transition(from: true, to: screen)
    } else {
      screen.runAppearance(appearing: true)
    }
  }

  /// Dismisses what this screen presented, or this screen if it was presented.
  public func dismiss() {
    if let presented = presentedScreen {
      presented.dismissSelf()
    } else if presentingScreen != nil {
      dismissSelf()
    } else if let ancestor = sequence(first: self, next: \.parent).first(where: { $0.presentedScreen != nil })
    {
      ancestor.presentedScreen?.dismissSelf()
    }
  }

  private func dismissSelf() {
    guard let presenter = presentingScreen else { return }
    let checker = window?.checker
    presentedScreen?.dismissSelf()
    if isVisible {
      if presentationStyle == .fullScreen {
        transition(from: true, to: presenter)
      } else {
        runAppearance(appearing: false)
      }
    }
    presenter.presentedScreen = nil
    presentingScreen = nil
    checker?.expectTreeOf(self)
  }

  /// The root of this screen's window-level ancestry, then the top of its presentation chain.
  var topPresenter: Screen {
    var root: Screen = self
    while let parent = root.parent ?? root.presentingScreen { root = parent }
    var top = root
    while let presented = top.presentedScreen { top = presented }
    return top
  }
}
