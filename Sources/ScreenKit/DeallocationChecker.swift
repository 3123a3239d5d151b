/// How ScreenKit tells a leak detector that objects should go away.
///
/// ScreenKit knows nothing of any detector: the app wires one in. A closed
/// screen hands over its whole tree (child screens, presented screen, views);
/// a screen shown again withdraws the expectation (the LeakedViewController
/// rule: a leak is alive after the delay with no window, no parent and nothing
/// presented).
///
/// ```swift
/// let window = Window(checker: DeallocationChecker(
///   expectTree: { root, children in detector.expectDeallocation(ofTree: root, children: children) },
///   withdraw: { detector.withdrawExpectations(for: $0) }))
/// ```
public struct DeallocationChecker: Sendable {
  /// Expects `root` and every descendant reached through `children` to deallocate.
  public var expectTree:
    @MainActor @Sendable (_ root: AnyObject, _ children: (AnyObject) -> [AnyObject]) -> Void
  /// Withdraws expectations for an object that came back on screen.
  public var withdraw: @MainActor @Sendable (_ object: AnyObject) -> Void

  /// Creates a checker from two closures.
  public init(
    expectTree: @escaping @MainActor @Sendable (AnyObject, (AnyObject) -> [AnyObject]) -> Void,
    withdraw: @escaping @MainActor @Sendable (AnyObject) -> Void = { _ in }
  ) {
    self.expectTree = expectTree
    self.withdraw = withdraw
  }

  /// The children of a node in a closed screen's tree: child screens, the
  /// presented screen and the root view for a screen; subviews for a view.
  @MainActor
  public static func treeChildren(of node: AnyObject) -> [AnyObject] {
    if let screen = node as? Screen {
      var result: [AnyObject] = screen.children
      if let presented = screen.presentedScreen { result.append(presented) }
      if let view = screen.viewIfLoaded { result.append(view) }
      return result
    }
    if let view = node as? View { return view.subviews }
    return []
  }
}
