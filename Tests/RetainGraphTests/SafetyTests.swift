import Synchronization
import Testing

@testable import RetainGraph

@Suite struct SafetyTests {
  @Test func explainingNeverExtendsALifetime() {
    let explainer = RetainExplainer(naming: { "\(type(of: $0))" }, searchesMemory: false)
    weak var weakScreen: Screen?
    weak var weakOwner: Owner?
    do {
      let screen = Screen()
      let owner = Owner()
      owner.handler = { _ = screen }
      weakScreen = screen
      weakOwner = owner
      explainer.registerRoot(owner)
      _ = explainer.explain(screen)
      _ = explainer.references(of: owner)
      _ = explainer.references(of: screen)
    }
    #expect(weakScreen == nil)
    #expect(weakOwner == nil)
  }

  @Test func anObjectReleasedWhileBeingInspectedDoesNotCrash() throws {
    // The naming function runs while the path's objects are inspected; it
    // drops the only reference to the next node of the cycle.
    weak var weakMiddle: Node?
    let first = Node(0)
    do {
      let middle = Node(1)
      weakMiddle = middle
      first.next = middle
      middle.next = Node(2)
      middle.next?.next = first
    }
    let explainer = RetainExplainer(
      naming: { object in
        if let node = object as? Node, node.id == 0 { node.next = nil }
        return "\(type(of: object))"
      }, searchesMemory: false)
    let explanation = explainer.explain(first)
    #expect(explanation.path?.steps.count == 3)
    #expect(weakMiddle == nil)
    #expect(explainer.explain(first).path == nil)
  }

  @Test func objectsChangingOnAnotherThreadDuringInspectionDoNotCrash() async {
    let shared = SharedChain()
    let explainer = RetainExplainer(searchesMemory: false)
    let writer = Task.detached {
      for round in 0..<20_000 { shared.replaceMiddle(round) }
    }
    for _ in 0..<300 { _ = explainer.explain(shared.head) }
    await writer.value
    shared.head.next = nil
  }

  @Test func aHundredThousandNodeChainClosingIntoACycleIsExplainedWithNoDepthLimit() throws {
    let nodes = makeChain(100_000, closed: true)
    defer { breakCycles(nodes) }
    let explainer = RetainExplainer(limits: .unbounded, searchesMemory: false)
    let explanation = explainer.explain(nodes[0])
    #expect(explanation.path?.steps.count == 100_000)
    #expect(!explanation.isTruncated)
  }

  @Test func limitsStopASearchAndSaySo() {
    let nodes = makeChain(20, closed: true)
    defer { breakCycles(nodes) }
    let byDepth = RetainExplainer(limits: SearchLimits(maxDepth: 5), searchesMemory: false)
    #expect(byDepth.explain(nodes[0]).path == nil)
    #expect(byDepth.explain(nodes[0]).isTruncated)
    let byNodes = RetainExplainer(limits: SearchLimits(maxNodes: 10), searchesMemory: false)
    #expect(byNodes.explain(nodes[0]).isTruncated)
  }

  @Test func directReadsGiveTheSameAnswer() {
    let explainer = RetainExplainer(method: .only(.remoteMirrorDirectReads), searchesMemory: false)
    let alert = AlertScreen().showAlert()
    defer { alert.actions = [] }
    #expect(explainer.method == .remoteMirrorDirectReads)
    #expect(explainer.explain(alert).path?.steps.map(\.label) == ["actions[0]", "handler"])
  }
}

/// A cycle whose middle node another thread keeps replacing. `@unchecked
/// Sendable` on purpose: the explainer must survive objects that change and
/// die under it; only the writer thread touches `next` through Swift.
final class SharedChain: @unchecked Sendable {
  let head = Node(0)

  init() {
    head.next = Node(1)
    head.next?.next = head
  }

  func replaceMiddle(_ round: Int) {
    let middle = Node(round)
    middle.next = head
    head.next = middle
  }
}
