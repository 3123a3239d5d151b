extension Screen {
  /// Sends the appearance callbacks to this screen and its visible children.
  func runAppearance(appearing: Bool) {
    willChange(appearing: appearing)
    didChange(appearing: appearing)
  }

  /// Disappears `self` (if `from`) while `incoming` appears, in UIKit's order:
  /// will-disappear, will-appear, did-disappear, did-appear.
  func transition(from disappearing: Bool, to incoming: Screen) {
    if disappearing { willChange(appearing: false) }
    incoming.willChange(appearing: true)
    if disappearing { didChange(appearing: false) }
    incoming.didChange(appearing: true)
  }

  func willChange(appearing: Bool) {
    if appearing {
      _ = view
      viewWillAppear()
    } else {
      viewWillDisappear()
    }
    for child in visibleChildren { child.willChange(appearing: appearing) }
  }

  func didChange(appearing: Bool) {
    isVisible = appearing
    if appearing { viewDidAppear() } else { viewDidDisappear() }
    for child in visibleChildren { child.didChange(appearing: appearing) }
  }
}

extension DeallocationChecker {
  @MainActor
  func expectTreeOf(_ root: AnyObject) {
    expectTree(root) { DeallocationChecker.treeChildren(of: $0) }
  }

  /// Withdraws expectations for `root` and its whole tree: it is back on screen.
  @MainActor
  func withdrawTreeOf(_ root: AnyObject) {
    var stack = [root]
    while let node = stack.popLast() {
      withdraw(node)
      stack.append(contentsOf: DeallocationChecker.treeChildren(of: node))
    }
  }
}
