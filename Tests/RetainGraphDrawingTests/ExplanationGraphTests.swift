import GraphLayout
import RetainGraph
import RetainGraphDrawing
import Testing
import TextGrid

// Real objects, explained by RetainGraph and turned into graphs.

final class Action {
  var handler: (() -> Void)?
}

final class Alert {
  var actions: [Action] = []
  var title = "Delete?"
}

final class Screen {
  var onLoad: (() -> Void)?
  var title = ""

  /// The classic leak: the action's handler captures its alert and the screen.
  func showAlert() -> Alert {
    let alert = Alert()
    let action = Action()
    action.handler = { print(alert.title, self.title) }
    alert.actions.append(action)
    return alert
  }

  /// A closure capturing only self: its context is the screen itself.
  func load() { onLoad = { self.title = "loaded" } }
}

@Suite struct ExplanationGraphTests {
  typealias Node = ReferenceGraph.Node
  typealias Edge = ReferenceGraph.Edge

  // MARK: From real objects

  @Test("A real alert cycle becomes boxes for the alert, its action and the closure, the capture the culprit")
  func realAlertCycle() throws {
    let screen = Screen()
    let alert = screen.showAlert()
    defer { alert.actions = [] }
    let explanation = RetainExplainer().explain(alert)
    let graph = ReferenceGraph(explanation)
    #expect(graph.nodes.map(\.title) == ["Alert", "Action", "closure"])
    #expect(graph.nodes.map(\.id) == ["Alert", "Action", "closure_1"])
    #expect(graph.nodes[0].isLeaked)
    #expect(graph.nodes[2].kind == .closure)
    #expect(graph.nodes[2].details.first == "in Screen.showAlert()")
    #expect(graph.edges.map(\.label) == ["actions[0]", "handler", "captures[0]"])
    #expect(graph.edges.map(\.isCulprit) == [false, false, true])
    #expect(graph.edges.allSatisfy { $0.strength == .strong })
  }

  @Test("A closure capturing only self is a self-loop whose label names the closure")
  func realSelfLoop() throws {
    let screen = Screen()
    screen.load()
    defer { screen.onLoad = nil }
    let graph = ReferenceGraph(RetainExplainer().explain(screen))
    #expect(graph.nodes.map(\.title) == ["Screen"])
    let edge = try #require(graph.edges.first)
    #expect(edge.from == "Screen" && edge.to == "Screen")
    #expect(edge.fullLabel == "onLoad: closure in Screen.load()")
    #expect(edge.isCulprit)
    let picture = graph.draw(fitting: Size(width: 80, height: 24)).description
    #expect(picture.contains("onLoad: closure in Screen.load() (strong)"))
  }

  // MARK: Merging explanations

  private func info(_ name: String, _ address: UInt, _ kind: ObjectKind = .object) -> ObjectInfo {
    ObjectInfo(address: address, typeName: String(name.prefix { $0 != "#" }), name: name, kind: kind)
  }

  private func explanation(_ subject: ObjectInfo, _ verdict: Explanation.Verdict) -> Explanation {
    Explanation(object: subject, verdict: verdict, method: .remoteMirror, isTruncated: false, visitedCount: 1)
  }

  @Test("A leak held by another leak hangs off its cycle: no root, one culprit, both leaked")
  func heldByAnotherLeak() {
    let alert = info("AlertController#1", 0x10)
    let action = info("AlertAction#1", 0x20)
    let closure = info("closure", 0x30, .closureContext)
    let screen = info("DraftsScreen#1", 0x40)
    let toAction = Reference(label: "actions[1]", strength: .strong, target: action)
    let toClosure = Reference(
      label: "handler", strength: .strong, closure: "closure in DraftsScreen.confirmDelete()", target: closure
    )
    let cycle = RetainPath(
      start: alert,
      steps: [toAction, toClosure, Reference(label: "captures[1]", strength: .strong, target: alert)])
    let rootPath = RetainPath(
      start: alert,
      steps: [toAction, toClosure, Reference(label: "captures[0]", strength: .strong, target: screen)])
    let graph = ReferenceGraph(explanations: [
      explanation(alert, .cycle(cycle)), explanation(screen, .heldByRoot(rootPath)),
    ])
    #expect(graph.nodes.map(\.id) == ["AlertController_1", "AlertAction_1", "closure_1", "DraftsScreen_1"])
    #expect(graph.nodes.map(\.isLeaked) == [true, false, false, true])
    #expect(graph.nodes.allSatisfy { !$0.isRoot })
    #expect(
      graph.nodes[2].details == [
        "in DraftsScreen.confirmDelete()", "captures AlertController#1, DraftsScreen#1",
      ])
    #expect(graph.edges.count == 4)
    #expect(graph.edges.filter(\.isCulprit).map(\.label) == ["captures[1]"])
  }

  @Test("Focusing on one leak keeps its path and the cycle of the leak it hangs off, nothing else")
  func focus() {
    let alert = info("AlertController#1", 0x10)
    let action = info("AlertAction#1", 0x20)
    let closure = info("closure", 0x30, .closureContext)
    let screen = info("DraftsScreen#1", 0x40)
    let toAction = Reference(label: "actions[1]", strength: .strong, target: action)
    let toClosure = Reference(
      label: "handler", strength: .strong, closure: "closure in A.f()", target: closure)
    let run = [
      explanation(
        alert,
        .cycle(
          RetainPath(
            start: alert,
            steps: [toAction, toClosure, Reference(label: "captures[1]", strength: .strong, target: alert)]))),
      explanation(
        screen,
        .heldByRoot(
          RetainPath(
            start: alert,
            steps: [toAction, toClosure, Reference(label: "captures[0]", strength: .strong, target: screen)]))
      ),
    ]
    let first = ReferenceGraph(explanations: run, focusingOn: 0)
    #expect(first.nodes.map(\.title) == ["AlertController#1", "AlertAction#1", "closure"])
    #expect(first.edges.map(\.label) == ["actions[1]", "handler", "captures[1]"])
    let second = ReferenceGraph(explanations: run, focusingOn: 1)
    #expect(second.nodes.map(\.title) == ["AlertController#1", "AlertAction#1", "closure", "DraftsScreen#1"])
    #expect(second.edges.count == 4)
    #expect(second.edges.filter(\.isCulprit).map(\.label) == ["captures[1]"])
    #expect(ReferenceGraph(explanations: run, focusingOn: 7) == ReferenceGraph(explanations: run))
  }

  @Test("A cycle focused on from its second object keeps the culprit the first one chose")
  func focusKeepsTheCulprit() {
    let presenter = info("ProfilePresenter#1", 1)
    let interactor = info("ProfileInteractor#1", 2)
    let toInteractor = Reference(label: "interactor", strength: .strong, target: interactor)
    let toPresenter = Reference(label: "output", strength: .strong, target: presenter)
    let run = [
      explanation(presenter, .cycle(RetainPath(start: presenter, steps: [toInteractor, toPresenter]))),
      explanation(interactor, .cycle(RetainPath(start: interactor, steps: [toPresenter, toInteractor]))),
    ]
    let graph = ReferenceGraph(explanations: run, focusingOn: 1)
    #expect(graph.nodes.map(\.title) == ["ProfileInteractor#1", "ProfilePresenter#1"])
    #expect(graph.edges.filter(\.isCulprit).map(\.label) == ["output"])
  }

  @Test("The same cycle explained from two of its objects gets one culprit, the first one's")
  func oneCulpritPerCycle() {
    let presenter = info("ProfilePresenter#1", 1)
    let interactor = info("ProfileInteractor#1", 2)
    let toInteractor = Reference(label: "interactor", strength: .strong, target: interactor)
    let toPresenter = Reference(label: "output", strength: .strong, target: presenter)
    let graph = ReferenceGraph(explanations: [
      explanation(presenter, .cycle(RetainPath(start: presenter, steps: [toInteractor, toPresenter]))),
      explanation(interactor, .cycle(RetainPath(start: interactor, steps: [toPresenter, toInteractor]))),
    ])
    #expect(graph.edges.count == 2)
    #expect(graph.edges.filter(\.isCulprit).map(\.label) == ["output"])
  }

  @Test(
    "A registered root starts the path with a root mark; a conservative hop says so; the reference into the leak is the suspect"
  )
  func rootPath() {
    let center = info("NotificationCenter", 1)
    let storage = info("Dictionary storage", 2, .collectionStorage)
    let screen = info("InboxScreen#1", 3)
    let path = RetainPath(
      start: center,
      steps: [
        Reference(label: "word 3", strength: .strong, isConservative: true, target: storage),
        Reference(
          label: "values[0]", strength: .strong, closure: "closure in InboxScreen.observe()", target: screen),
      ])
    let graph = ReferenceGraph(explanation(screen, .heldByRoot(path)))
    #expect(graph.nodes.map(\.isRoot) == [false, true, false])
    #expect(graph.nodes[1].id == "NotificationCenter" && graph.nodes[1].isRoot)
    #expect(graph.nodes.first { $0.title == "Dictionary storage" }?.kind == .collection)
    #expect(graph.edges.map(\.strength) == [.conservative, .strong])
    #expect(graph.edges[1].closure == "closure in InboxScreen.observe()")
    #expect(graph.edges.map(\.isCulprit) == [false, true])
  }

  @Test("An object nothing visible holds is a lone leaked node that says so")
  func notVisible() {
    let session = info("Session#1", 9)
    let graph = ReferenceGraph(explanation(session, .notVisible(retainCount: 3)))
    #expect(
      graph.nodes == [
        Node(
          id: "Session_1", title: "Session#1",
          details: ["held by something not visible here (retain count 3)"],
          isLeaked: true)
      ])
    #expect(graph.edges.isEmpty)
  }

  @Test("Closures and unnamed objects are numbered in order; named instances keep their names")
  func identifiers() {
    let owner = info("Owner#1", 1)
    let first = info("closure", 2, .closureContext)
    let second = info("closure", 3, .closureContext)
    let path = RetainPath(
      start: owner,
      steps: [
        Reference(label: "a", strength: .strong, closure: "closure", target: first),
        Reference(label: "captures", strength: .strong, closure: "closure", target: second),
        Reference(label: "captures[2]", strength: .strong, target: owner),
      ])
    let graph = ReferenceGraph(explanation(owner, .cycle(path)))
    #expect(graph.nodes.map(\.id) == ["Owner_1", "closure_1", "closure_2"])
    #expect(graph.nodes[1].details == ["captures closure"])
    #expect(graph.edges.filter(\.isCulprit).map(\.label) == ["captures[2]"])
  }
}
