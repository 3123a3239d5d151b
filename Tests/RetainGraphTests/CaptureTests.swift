import Testing

@testable import RetainGraph

@Suite struct CaptureTests {
  let explainer = RetainExplainer(searchesMemory: false)

  @Test func aClosureWithSeveralCapturesShowsWhichCaptureHoldsTheObject() throws {
    let owner = Owner()
    owner.captureSeveral()
    defer { owner.handler = {} }
    let path = try #require(explainer.explain(owner).path)
    #expect(path.steps.map(\.label) == ["handler", "captures[2]"])
    #expect(path.steps[0].closure == "closure in Owner.captureSeveral()")
    #expect(path.steps[0].target.kind == .closureContext)
    let context = path.steps[0].target
    #expect(context.typeName == "closure")
  }

  @Test func aClosureCapturingOnlySelfUsesTheObjectAsItsContext() throws {
    let owner = Owner()
    owner.captureOnlySelf()
    defer { owner.handler = {} }
    let path = try #require(explainer.explain(owner).path)
    #expect(path.steps.count == 1)
    #expect(
      path.description == "Owner → handler: closure in Owner.captureOnlySelf() → captures Owner (strong)")
  }

  @Test func aCapturedVarIsFollowedThroughItsBox() throws {
    let owner = Owner()
    owner.captureVar()
    defer { owner.handler = {} }
    let path = try #require(explainer.explain(owner).path)
    #expect(path.steps.first?.label == "handler")
    #expect(path.end.address == RetainExplainer.address(of: owner))
  }

  @Test func aCollectionOfClosuresNamesTheElementThatCaptures() throws {
    let owner = Owner()
    owner.addCallbacks()
    defer { owner.callbacks = [] }
    let path = try #require(explainer.explain(owner).path)
    #expect(path.steps.map(\.label) == ["callbacks[1]"])
    #expect(path.steps[0].closure == "closure in Owner.addCallbacks()")
  }

  @Test func closureReferencesListTheirCapturesWithStrength() {
    let owner = Owner()
    owner.captureSeveral()
    defer { owner.handler = {} }
    let handler = explainer.references(of: owner).first { $0.label == "handler" }
    #expect(handler?.closure == "closure in Owner.captureSeveral()")
    #expect(handler?.strength == .strong)
  }
}
