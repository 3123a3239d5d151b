import LeakClock
import LeakDetector
import Testing

/// A small object tree: a screen with views, a child screen with its own view.
final class Node {
  var children: [Node] = []
  init(_ children: [Node] = []) { self.children = children }
}

final class RootScreen {
  var children: [AnyObject] = []
}

@MainActor
@Suite struct TreeTests {
  private func expectTree(_ harness: Harness, _ root: AnyObject) {
    harness.detector.expectDeallocation(ofTree: root) { node in
      (node as? RootScreen)?.children ?? (node as? Node)?.children ?? []
    }
  }

  @Test func aLeakedTreeIsReportedOnceWithItsDescendantsFolded() {
    let harness = Harness()
    let root = RootScreen()
    let child = Node([Node(), Node()])
    root.children = [child, View()]
    expectTree(harness, root)
    harness.advance(1)
    #expect(harness.label == "Leaked: RootScreen#1")
    let leak = try! #require(harness.detector.report.openLeaks.first)
    #expect(leak.folded == ["Node#1", "View#1", "Node#2", "Node#3"])
    #expect(harness.log.names(.detected) == ["RootScreen#1"])
  }

  @Test func aDescendantThatOutlivesItsDeallocatedAncestorIsReportedItself() {
    let harness = Harness()
    var root: RootScreen? = RootScreen()
    let survivor = Node()
    root!.children = [survivor, View()]
    expectTree(harness, root!)
    root = nil
    harness.advance(1)
    #expect(harness.label == "Leaked: Node#1")
  }

  @Test func foldedDescendantsAreReportedWhenTheirAncestorResolves() {
    let harness = Harness()
    var root: RootScreen? = RootScreen()
    let survivor = Node()
    root!.children = [survivor]
    expectTree(harness, root!)
    harness.advance(1)
    #expect(harness.label == "Leaked: RootScreen#1")
    root = nil
    harness.advance(0.1)
    #expect(harness.label == "Leaked: Node#1")
    #expect(harness.log.kinds == [.expected, .expected, .detected, .checked, .resolved, .detected])
    withExtendedLifetime(survivor) {}
  }

  @Test func sharedDescendantsAreExpectedOnce() {
    let harness = Harness()
    let shared = Node()
    let root = RootScreen()
    root.children = [Node([shared]), Node([shared])]
    expectTree(harness, root)
    #expect(harness.detector.report.pendingExpectations == 4)
  }
}
