import Testing

@testable import RetainGraph

/// References held inside values: collections, optionals, existentials, enums, structs.
@Suite struct ValueTests {
  let explainer = RetainExplainer(searchesMemory: false)

  /// The label of the edge from `model` to `screen`, with `screen.model = model` closing a cycle.
  func cycleLabel(_ setUp: (Model, Screen) -> Void) -> [String]? {
    let model = Model()
    let screen = Screen()
    screen.model = model
    setUp(model, screen)
    defer { screen.model = nil }
    return explainer.explain(model).path?.steps.map(\.label)
  }

  @Test func dictionaryValuesAreFollowed() {
    #expect(
      cycleLabel { model, screen in model.byName = ["a": Screen(), "b": screen] }?.first?.hasPrefix(
        "byName.values[") == true)
  }

  @Test func setElementsAreFollowed() {
    #expect(cycleLabel { model, screen in model.members = [screen] } == ["members[0]", "model"])
  }

  @Test func optionalsAreFollowed() {
    #expect(cycleLabel { model, screen in model.optional = screen } == ["optional", "model"])
  }

  @Test func protocolTypedFieldsAreFollowed() {
    #expect(cycleLabel { model, screen in model.delegate = screen } == ["delegate", "model"])
  }

  @Test func anyObjectFieldsAreFollowed() {
    #expect(cycleLabel { model, screen in model.anyObject = screen } == ["anyObject", "model"])
  }

  @Test func anyFieldsAreFollowed() {
    #expect(cycleLabel { model, screen in model.any = screen } == ["any", "model"])
  }

  @Test func nonClassProtocolExistentialsAreFollowed() {
    #expect(cycleLabel { model, screen in model.describable = screen } == ["describable", "model"])
  }

  @Test func enumPayloadsAreFollowed() {
    #expect(cycleLabel { model, screen in model.state = .loading(screen) } == ["state", "model"])
  }

  @Test func structFieldsInsideOptionalsAreFollowed() {
    #expect(
      cycleLabel { model, screen in model.wrapped = Wrapper(screen: screen) } == ["wrapped.screen", "model"])
  }

  @Test func tupleElementsAreFollowed() {
    #expect(cycleLabel { model, screen in model.tuple = (1, screen) } == ["tuple.1", "model"])
  }

  @Test func emptyValuesHoldNothing() {
    #expect(cycleLabel { _, _ in } == nil)
    #expect(explainer.references(of: Model()).isEmpty)
  }

  @Test func referencesReportEveryStrength() {
    let helper = Helper()
    let holder = Strengths(helper)
    let strengths = Dictionary(
      explainer.references(of: holder).map { ($0.label, $0.strength) },
      uniquingKeysWith: { first, _ in first })
    #expect(strengths == ["strong": .strong, "weak": .weak, "unowned": .unowned, "unmanaged": .unmanaged])
    #expect(
      explainer.references(of: holder).allSatisfy { $0.target.typeName == "Helper" && !$0.isConservative })
  }
}
