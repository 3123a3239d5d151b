/// A stack of screens with a back button, like `UINavigationController`.
///
/// ```swift
/// let navigation = NavigationStack(root: CatalogueScreen())
/// window.rootScreen = navigation
/// navigation.push(DetailScreen())
/// navigation.pop()  // DetailScreen is expected to deallocate
/// ```
public final class NavigationStack: Screen {
  /// The screens on the stack, bottom first.
  public var screens: [Screen] { children }
  /// The screen on top.
  public var topScreen: Screen? { children.last }

  /// Creates a stack with a root screen.
  public init(root: Screen) {
    super.init(title: root.title)
    addChild(root)
  }

  public override var visibleChildren: [Screen] { topScreen.map { [$0] } ?? [] }

  public override var title: String {
    get { topScreen?.title ?? "" }
    set { topScreen?.title = newValue }
  }

  /// Pushes `screen` on top of the stack.
  public func push(_ screen: Screen) {
    screen.removeFromParent(expectingDeallocation: false)
    let previous = topScreen
    children.append(screen)
    screen.parent = self
    window?.checker?.withdrawTreeOf(screen)
    guard isVisible else { return }
    if let previous {
      previous.transition(from: true, to: screen)
    } else {
      screen.runAppearance(appearing: true)
    }
  }

  /// Pops the top screen unless it is the root; the popped screen is expected to deallocate.
  @discardableResult
  public func pop() -> Screen? {
    guard children.count > 1, let top = children.last else { return nil }
    let checker = window?.checker
    top.presentedScreen?.dismiss()
    if isVisible { top.transition(from: true, to: children[children.count - 2]) }
    children.removeLast()
    top.parent = nil
    checker?.expectTreeOf(top)
    return top
  }

  /// Pops every screen above the root.
  public func popToRoot() {
    while pop() != nil {}
  }
}
