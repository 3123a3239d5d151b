import Foundation
import HeapModel
import LeakLabTestSupport
import MemoryView
import Testing

@testable import RetainGraph

@Suite struct RootPathTests {
  @Test func aRegisteredRootLeadsToAnObjectWithoutACycle() throws {
    let names = InstanceNames()
    let explainer = RetainExplainer(naming: { names.name($0) })
    let pending = PendingWork()
    let screen = Screen()
    pending.schedule {}
    pending.schedule { _ = screen }
    explainer.registerRoot(pending, name: "scheduler")
    let explanation = explainer.explain(screen)
    guard case .heldByRoot(let path) = explanation.verdict else {
      Issue.record("expected a root path, got \(explanation)")
      return
    }
    #expect(path.start.name == "scheduler")
    #expect(path.steps.map(\.label) == ["blocks[1]", "captures"])
    #expect(path.description.hasSuffix("captures Screen#1 (strong)"))
    #expect(!path.isConservative)
  }

  @Test func anObjectThatIsARootIsHeldByThatRoot() {
    let explainer = RetainExplainer()
    let pending = PendingWork()
    explainer.registerRoot(pending)
    guard case .heldByRoot(let path) = explainer.explain(pending).verdict else {
      Issue.record("expected the root itself")
      return
    }
    #expect(path.steps.isEmpty)
  }

  @Test func anObjectHeldOnlyByALocalIsNotVisibleAndReportsItsRetainCount() {
    let explainer = RetainExplainer(searchesMemory: false)
    explainer.registerRoot(PendingWork())
    let screen = Screen()
    let alsoHeld = screen
    let explanation = explainer.explain(screen)
    guard case .notVisible(let retainCount) = explanation.verdict else {
      Issue.record("expected nothing visible, got \(explanation)")
      return
    }
    #expect(retainCount >= 2)
    #expect(explanation.description.contains("held by something not visible here"))
    _ = alsoHeld
  }

  @Test func rootsAreHeldWeakly() {
    let explainer = RetainExplainer()
    weak var weakRoot: PendingWork?
    do {
      let root = PendingWork()
      weakRoot = root
      explainer.registerRoot(root)
      #expect(explainer.rootCount == 1)
    }
    #expect(weakRoot == nil)
    #expect(explainer.rootCount == 0)
  }

  /// The app registers each leak it explains as a root for the next ones:
  /// the registration is a weak reference, and no address of the leak stays
  /// in the explainer's memory (a plain one reads as an unsafe pointer that
  /// holds it, and the memory search explaining the leak believed it).
  @Test(.memoryViewSupported) func aRegisteredLeakLeavesNoWordInTheExplainerThatHoldsIt() throws {
    let explainer = RetainExplainer(searchesMemory: false)
    let leak = Screen()
    explainer.registerLeak(leak, inCycle: true)
    explainer.registerRoot(PendingWork(), name: "scheduler")
    try withExtendedLifetime((explainer, leak)) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let block = try #require(model.block(containing: RetainExplainer.address(of: leak)))
      let holders = model.edges(into: block).filter { $0.kind != .back && $0.kind != .conservative }.map {
        model.describe($0.source)
      }
      #expect(holders.isEmpty, "\(holders)")
    }
  }

  @Test func unregisteredRootsAreNotSearched() {
    let explainer = RetainExplainer(searchesMemory: false)
    let pending = PendingWork()
    let screen = Screen()
    pending.schedule { _ = screen }
    explainer.registerRoot(pending)
    explainer.unregisterRoot(pending)
    #expect(explainer.explain(screen).path == nil)
  }

  @Test func aNotificationCenterBlockObserverIsFoundThroughTheOpaqueCenter() throws {
    let names = InstanceNames()
    // The center is a local variable: without a registered root only the
    // caller holds it (the memory search, on by default, says just that).
    let explainer = RetainExplainer(naming: { names.name($0) }, searchesMemory: false)
    let center = NotificationCenter()
    let screen = SettingsScreen()
    let observer = center.addObserver(forName: .init("changed"), object: nil, queue: nil) { _ in _ = screen }
    defer { center.removeObserver(observer) }
    #expect(explainer.explain(screen).path == nil)
    explainer.registerRoot(center, name: "center")
    let explanation = explainer.explain(screen)
    guard case .heldByRoot(let path) = explanation.verdict else {
      Issue.record("expected a root path, got \(explanation)")
      return
    }
    #expect(path.start.name == "center")
    #expect(path.steps.first?.isConservative == true)
    #expect(path.isConservative)
    #expect(path.end.name == "SettingsScreen#1")
    #expect(path.steps.last?.label.hasPrefix("captures") == true)
    print(path)
  }
}
