import Testing

@testable import RetainGraph

/// A generic closure has one context metadata for every binding of its
/// generic parameters, but each binding lays the captures out differently.
@Suite struct GenericClosureTests {
  let explainer = RetainExplainer(searchesMemory: false)

  @Test func eachBindingOfAGenericClosureIsReadWithItsOwnLayout() throws {
    for value in [AnyCaptured(UInt8(7)), AnyCaptured("a string of 16 bytes+"), AnyCaptured((1, 2, 3, 4))] {
      let owner = Owner()
      value.capture(owner)
      defer { owner.handler = {} }
      let path = try #require(explainer.explain(owner).path, "\(value)")
      #expect(path.steps.map(\.label) == ["handler", "captures[1]"], "\(value)")
      #expect(path.end.address == RetainExplainer.address(of: owner), "\(value)")
    }
  }

  @Test func onlyGenericClosureContextsAreMarkedAsVaryingInLayout() throws {
    let engine = try #require(ReflectionEngine.safe)
    let owner = Owner()
    defer { owner.handler = {} }
    func handlerContext() throws -> UInt {
      let handler = explainer.references(of: owner).first { $0.label == "handler" }
      return try #require(handler?.target.address)
    }
    owner.captureSeveral()
    #expect(engine.contextHasFixedLayout(try handlerContext()) == true)
    owner.captureAfter("generic")
    #expect(engine.contextHasFixedLayout(try handlerContext()) == false)
    #expect(engine.contextHasFixedLayout(RetainExplainer.address(of: owner)) == nil)
  }
}

/// Calls `Owner.captureAfter` with a value of a type fixed here.
private struct AnyCaptured: CustomStringConvertible {
  let capture: (Owner) -> Void
  let description: String

  init<Value>(_ value: Value) {
    capture = { $0.captureAfter(value) }
    description = "\(Value.self)"
  }
}
