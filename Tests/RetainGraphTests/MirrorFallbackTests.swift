import Testing

@testable import RetainGraph

/// The `Mirror` fallback, selected explicitly so that it is tested on every run.
@Suite struct MirrorFallbackTests {
  let explainer = RetainExplainer(method: .only(.mirror), limits: .unbounded)

  @Test func theFallbackSaysWhatItIs() {
    #expect(explainer.method == .mirror)
    let node = Node(0)
    #expect(explainer.explain(node).description.contains("cannot tell weak from strong"))
  }

  @Test func theFallbackFindsCyclesThroughStoredProperties() throws {
    let nodes = makeChain(5, closed: true)
    defer { breakCycles(nodes) }
    let path = try #require(explainer.explain(nodes[0]).path)
    #expect(path.steps.count == 5)
    #expect(path.steps.allSatisfy { $0.strength == .unknown })
  }

  @Test func theFallbackFindsCyclesThroughCollectionsAndOptionals() throws {
    let model = Model()
    let screen = Screen()
    screen.model = model
    model.byName = ["only": screen]
    defer { screen.model = nil }
    let path = try #require(explainer.explain(model).path)
    #expect(path.steps.map(\.label) == ["byName.values[0]", "model"])
  }

  @Test func theFallbackCannotSeeClosureCaptures() {
    let alert = AlertScreen().showAlert()
    defer { alert.actions = [] }
    #expect(explainer.explain(alert).path == nil)
  }

  @Test func theFallbackMistakesWeakBackEdgesForCycles() {
    let (parent, child) = (Node(0), Node(1))
    parent.next = child
    child.back = parent
    #expect(explainer.explain(parent).path?.steps.map(\.label) == ["next", "back"])
  }

  @Test func theFallbackFindsRootPathsAndKeepsNothingAlive() {
    weak var weakScreen: Screen?
    let root = Model()
    do {
      let screen = Screen()
      weakScreen = screen
      root.optional = screen
      explainer.registerRoot(root)
      #expect(explainer.explain(screen).path?.steps.map(\.label) == ["optional"])
      root.optional = nil
    }
    #expect(weakScreen == nil)
  }
}

/// A `lazy var`'s storage is named as the developer declared it, by Remote
/// Mirror's metadata and by `Mirror` alike (the compiler's name for it is
/// `$__lazy_storage_$_formatter`).
@Suite struct LazyStorageLabelTests {
  final class Formatter {}
  final class Cart {
    lazy var formatter = Formatter()
  }

  @Test(arguments: [InspectionPreference.automatic, .only(.mirror)])
  func aLazyVarsStorageIsNamedAsDeclared(method: InspectionPreference) throws {
    let cart = Cart()
    _ = cart.formatter
    let labels = RetainExplainer(method: method).references(of: cart).map(\.label)
    #expect(labels == ["formatter (lazy var)"])
  }
}
