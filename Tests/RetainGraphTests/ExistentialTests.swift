import Testing

@testable import RetainGraph

// Delegates held through protocol existentials by a component three class
// levels deep, like LeakLab's `StrongDelegatePaymentForm: PaymentForm: View`.
// A class-constrained existential is [object, witness table...]: only the
// object word is a reference. Remote Mirror places the fields of such a class
// past its real fields (it counts the grandparent's fields twice), so the
// offsets must come from the runtime's field offset vector.

protocol FormDelegate: AnyObject {}
protocol FormObserver: AnyObject {}
protocol FormDescribing {}

struct Untitled: FormDescribing {}

final class DelegateScreen: FormDelegate, FormObserver, FormDescribing, Sendable {
  nonisolated(unsafe) var form: AnyObject?
}

/// A base class with fields, like ScreenKit's `View`.
class FormView {
  var subviews: [FormView] = []
  weak var superview: FormView?
  var identifier: String? = "payment-form"
  var isHidden = false
  weak var owner: AnyObject?
}

/// A middle class without fields, like `PaymentForm`.
class FormBase: FormView {}

final class OptionalDelegateForm: FormBase {
  var delegate: (any FormDelegate)?
}

final class RequiredDelegateForm: FormBase {
  var delegate: any FormDelegate
  init(_ delegate: any FormDelegate) { self.delegate = delegate }
}

final class SendableDelegateForm: FormBase {
  var delegate: (any FormDelegate & Sendable)?
}

final class ComposedDelegateForm: FormBase {
  var number = 7
  var delegate: (any FormDelegate & FormObserver)?
}

final class WeakDelegateForm: FormBase {
  weak var delegate: (any FormDelegate)?
}

final class UnownedDelegateForm: FormBase {
  unowned var delegate: any FormDelegate
  init(_ delegate: any FormDelegate) { self.delegate = delegate }
}

final class DelegateArrayForm: FormBase {
  var delegates: [any FormDelegate] = []
}

final class DescribingForm: FormBase {
  var subject: any FormDescribing = Untitled()
}

/// Four levels, with fields at every level but one.
class LevelOne {
  var flag = true
  var one: Helper?
}

class LevelTwo: LevelOne {
  var two: Helper?
}

class LevelThree: LevelTwo {}

final class LevelFour: LevelThree {
  var small: UInt8 = 1
  var four: Helper?
}

@Suite struct ExistentialTests {
  let explainer = RetainExplainer(searchesMemory: false)

  /// The references of `form`, and the labels of the strong cycle through
  /// `screen` once `screen.form = form` closes the loop, if there is one.
  func inspect(_ form: AnyObject, screen: DelegateScreen) -> (references: [Reference], cycle: [String]?) {
    screen.form = form
    defer { screen.form = nil }
    return (explainer.references(of: form), explainer.explain(screen).path?.steps.map(\.label))
  }

  /// Expects `references` to be exactly one edge to `screen`, precise, with `label` and `strength`.
  func expectOneEdge(
    _ references: [Reference], to screen: DelegateScreen, label: String, strength: ReferenceStrength,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let address = RetainExplainer.address(of: screen)
    #expect(references.count == 1, "\(references)", sourceLocation: sourceLocation)
    let reference = references.first
    #expect(reference?.target.address == address, "\(references)", sourceLocation: sourceLocation)
    #expect(reference?.target.typeName == "DelegateScreen", sourceLocation: sourceLocation)
    #expect(reference?.label == label, sourceLocation: sourceLocation)
    #expect(reference?.strength == strength, sourceLocation: sourceLocation)
    #expect(reference?.isConservative == false, sourceLocation: sourceLocation)
  }

  @Test func anOptionalClassExistentialIsAStrongEdgeToTheObject() {
    let screen = DelegateScreen()
    let form = OptionalDelegateForm()
    form.delegate = screen
    defer { form.delegate = nil }
    let (references, cycle) = inspect(form, screen: screen)
    expectOneEdge(references, to: screen, label: "delegate", strength: .strong)
    #expect(cycle == ["form", "delegate"])
  }

  @Test func aNonOptionalClassExistentialIsAStrongEdgeToTheObject() {
    let screen = DelegateScreen()
    let form = RequiredDelegateForm(screen)
    defer { form.delegate = DelegateScreen() }
    let (references, cycle) = inspect(form, screen: screen)
    expectOneEdge(references, to: screen, label: "delegate", strength: .strong)
    #expect(cycle == ["form", "delegate"])
  }

  @Test func aSendableCompositionIsAStrongEdgeToTheObject() {
    let screen = DelegateScreen()
    let form = SendableDelegateForm()
    form.delegate = screen
    defer { form.delegate = nil }
    let (references, cycle) = inspect(form, screen: screen)
    expectOneEdge(references, to: screen, label: "delegate", strength: .strong)
    #expect(cycle == ["form", "delegate"])
  }

  @Test func witnessTablesOfACompositionAreNotReferences() {
    let screen = DelegateScreen()
    let form = ComposedDelegateForm()
    form.delegate = screen
    defer { form.delegate = nil }
    let (references, cycle) = inspect(form, screen: screen)
    expectOneEdge(references, to: screen, label: "delegate", strength: .strong)
    #expect(cycle == ["form", "delegate"])
  }

  @Test func aWeakClassExistentialIsWeakAndNeverACycle() {
    let screen = DelegateScreen()
    let form = WeakDelegateForm()
    form.delegate = screen
    let (references, cycle) = inspect(form, screen: screen)
    expectOneEdge(references, to: screen, label: "delegate", strength: .weak)
    #expect(cycle == nil)
  }

  @Test func anUnownedClassExistentialIsUnownedAndNeverACycle() {
    let screen = DelegateScreen()
    let form = UnownedDelegateForm(screen)
    let (references, cycle) = inspect(form, screen: screen)
    expectOneEdge(references, to: screen, label: "delegate", strength: .unowned)
    #expect(cycle == nil)
  }

  @Test func anArrayOfClassExistentialsHoldsTheObjects() {
    let screen = DelegateScreen()
    let form = DelegateArrayForm()
    form.delegates = [screen]
    defer { form.delegates = [] }
    let (references, cycle) = inspect(form, screen: screen)
    expectOneEdge(references, to: screen, label: "delegates[0]", strength: .strong)
    #expect(cycle == ["form", "delegates[0]"])
  }

  @Test func anOpaqueExistentialHoldingAClassIsAStrongEdgeToTheObject() {
    let screen = DelegateScreen()
    let form = DescribingForm()
    form.subject = screen
    defer { form.subject = Untitled() }
    let (references, cycle) = inspect(form, screen: screen)
    expectOneEdge(references, to: screen, label: "subject", strength: .strong)
    #expect(cycle == ["form", "subject"])
  }

  @Test func theBaseClassFieldsOfADeepSubclassAreFollowed() throws {
    let screen = DelegateScreen()
    let parent = OptionalDelegateForm()
    let form = OptionalDelegateForm()
    parent.subviews = [form]
    form.superview = parent
    form.owner = screen
    let references = explainer.references(of: form)
    #expect(references.map(\.label).sorted() == ["owner", "superview"])
    #expect(references.allSatisfy { $0.strength == .weak && !$0.isConservative })
    #expect(
      references.first { $0.label == "superview" }?.target.address == RetainExplainer.address(of: parent))
    #expect(references.first { $0.label == "owner" }?.target.address == RetainExplainer.address(of: screen))
    #expect(explainer.references(of: parent).map(\.label) == ["subviews[0]"])
  }

  @Test func everyLevelOfAFourLevelHierarchyIsAtItsRuntimeOffset() {
    let helpers = (one: Helper(), two: Helper(), four: Helper())
    let object = LevelFour()
    object.one = helpers.one
    object.two = helpers.two
    object.four = helpers.four
    let targets = Dictionary(
      explainer.references(of: object).map { ($0.label, $0.target.address) },
      uniquingKeysWith: { first, _ in first }
    )
    #expect(
      targets == [
        "one": RetainExplainer.address(of: helpers.one), "two": RetainExplainer.address(of: helpers.two),
        "four": RetainExplainer.address(of: helpers.four),
      ])
  }
}
