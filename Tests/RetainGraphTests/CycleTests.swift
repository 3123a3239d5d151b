import Testing

@testable import RetainGraph

@Suite struct CycleTests {
  let explainer = RetainExplainer(limits: .unbounded, searchesMemory: false)

  @Test(arguments: 1...20)
  func aCycleOfAnyLengthIsFoundWithExactlyThatManySteps(length: Int) throws {
    let nodes = makeChain(length, closed: true)
    defer { breakCycles(nodes) }
    let explanation = explainer.explain(nodes[0])
    guard case .cycle(let path) = explanation.verdict else {
      Issue.record("expected a cycle, got \(explanation)")
      return
    }
    #expect(path.steps.count == length)
    #expect(path.steps.allSatisfy { $0.label == "next" && $0.strength == .strong })
    #expect(path.start.address == RetainExplainer.address(of: nodes[0]))
    #expect(path.end.address == RetainExplainer.address(of: nodes[0]))
  }

  @Test func aDiamondWithoutABackEdgeIsNotACycle() {
    let (top, left, right, bottom) = (Node(0), Node(1), Node(2), Node(3))
    top.others = [left, right]
    left.next = bottom
    right.next = bottom
    #expect(explainer.explain(top).path == nil)
    #expect(explainer.explain(bottom).path == nil)
  }

  @Test func aDiamondClosedFromTheBottomGivesTheShortestCycle() throws {
    let (top, left, right, bottom) = (Node(0), Node(1), Node(2), Node(3))
    top.others = [left, right]
    left.next = right
    right.next = bottom
    bottom.next = top
    defer { breakCycles([top, left, right, bottom]) }
    let path = try #require(explainer.explain(top).path)
    #expect(path.steps.map(\.label) == ["others[1]", "next", "next"])
  }

  @Test func weakBackEdgesNeverMakeACycle() {
    let (parent, child) = (Node(0), Node(1))
    parent.next = child
    child.back = parent
    #expect(explainer.explain(parent).path == nil)
    #expect(explainer.explain(child).path == nil)
    let back = explainer.references(of: child).first { $0.label == "back" }
    #expect(back?.strength == .weak)
    #expect(back?.target.address == RetainExplainer.address(of: parent))
  }

  @Test func unownedAndUnmanagedEdgesNeverMakeACycle() {
    let helper = Helper()
    let holder = Strengths(helper)
    #expect(explainer.explain(helper).path == nil)
    let node = Node(0)
    node.unmanaged = node
    #expect(explainer.explain(node).path == nil)
    _ = holder
  }

  @Test func theAlertActionCycleReadsAsTheDeveloperWouldFollowIt() {
    let names = InstanceNames()
    let explainer = RetainExplainer(naming: { names.name($0) }, searchesMemory: false)
    let screen = AlertScreen()
    let alert = screen.showAlert()
    defer { alert.actions = [] }
    let explanation = explainer.explain(alert)
    #expect(
      explanation.path?.description
        == "AlertController#1 → actions[0]: AlertAction#1 → handler: closure in AlertScreen.showAlert()"
        + " → captures AlertController#1 (strong)")
    guard case .cycle = explanation.verdict else {
      Issue.record("expected a cycle, got \(explanation)")
      return
    }
  }

  @Test func subclassCyclesGoThroughSuperclassFields() throws {
    let viewModel = DetailViewModel()
    let screen = Screen()
    viewModel.screen = screen
    screen.model = Model()
    screen.model?.anyObject = viewModel
    defer { screen.model = nil }
    let path = try #require(explainer.explain(viewModel).path)
    #expect(path.steps.map(\.label) == ["screen", "model", "anyObject"])
  }
}
