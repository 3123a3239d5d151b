import SwiftSyntax

/// Walks one ``AnalysisUnit`` in source order, keeping the names in scope,
/// and records what the rules need: each closure's strong captures, where
/// values are kept (sinks), every call with what its arguments carry, uses of
/// root-held APIs, and teardown calls.
///
/// Captures are attributed as in Swift: a name used inside a closure and
/// declared outside it is captured by that closure (and every closure between
/// them); `[weak self]` makes a weak binding inside the closure, and `guard let
/// self` a new strong one that nested closures capture strongly.
final class BodyWalker: SyntaxVisitor {
  let unit: AnalysisUnit
  let index: TypeIndex
  var facts: LintFacts
  let lines: LineTable
  var scopes = ScopeStack()
  struct ActiveClosure {
    var closure: Int
    var depth: Int
    /// The storage whose elements its parameters are (`timers.forEach { $0.invalidate() }`).
    var elementKey: String?
  }
  var activeClosures: [ActiveClosure] = []
  var closureByNode: [SyntaxIdentifier: Int] = [:]
  var callByNode: [SyntaxIdentifier: Int] = [:]
  var pendingBindings: [SyntaxIdentifier: [Binding]] = [:]
  var nextLocal: Int
  /// Local roots that are this function's parameters (what they keep is the caller's).
  var parameterRoots: Set<Int> = []
  /// In a value type's body: the objects its stored properties hold (`@StateObject var model`), by name.
  var memberObjectBindings: [String: Binding] = [:]

  init(
    unit: AnalysisUnit, index: TypeIndex, facts: LintFacts, lines: LineTable, nextLocal: Int
  ) {
    self.unit = unit
    self.index = index
    self.facts = facts
    self.lines = lines
    self.nextLocal = nextLocal
    super.init(viewMode: .sourceAccurate)
  }

  /// Walks the unit and returns the facts with its own added.
  func run() -> LintFacts {
    scopes.push()
    if unit.typeName != nil, !unit.isStatic, index.isReferenceType(unit.typeName) {
      scopes.bind(Binding(name: "self", root: .selfObject, isStrong: true, depth: 0))
    }
    for (position, parameter) in unit.parameters.enumerated() {
      let root = newLocal(type: parameter.typeName, name: parameter.name)
      parameterRoots.insert(root)
      facts.parameterRoots.insert(root)
      if let type = parameter.typeName, KnownAPI.ownerParameterTypes.contains(type),
        scopes.lookup("self") != nil
      {
        facts.ownerLocals.insert(root)
      }
      var carried: [Carried] = [.object(.local(root))]
      if let function = unit.functionIndex {
        carried.append(.parameter(function: function, index: position))
        facts.parameterSlots[root] = ParameterSlot(function: function, index: position)
      }
      scopes.bind(
        Binding(
          name: parameter.name, root: .local(root), isStrong: true, depth: 0, carried: carried,
          typeName: parameter.typeName))
    }
    if case .lazyInitializer(let name) = unit.kind, let value = unit.node.as(ExprSyntax.self),
      scopes.lookup("self") != nil
    {
      facts.sinks.append(
        Sink(
          owner: .selfObject, carried: carried(value), position: position(value), path: PathText(name),
          unit: unit.id,
          property: name, via: nil, isLazy: true))
    }
    walk(unit.node)
    defer { facts = LintFacts() }
    return facts
  }

  func newLocal(type: String?, name: String? = nil) -> Int {
    nextLocal += 1
    facts.localUnits[nextLocal] = unit.id
    if let name { facts.localNames[nextLocal] = name }
    if let type { facts.localTypes[nextLocal] = type }
    return nextLocal
  }

  func position(_ node: some SyntaxProtocol) -> SourcePosition {
    let location = lines.location(of: node.positionAfterSkippingLeadingTrivia)
    return SourcePosition(file: unit.file, line: location.line, column: location.column)
  }

  // MARK: Names

  /// The binding a name refers to here; an instance member used without
  /// `self.` refers to `self`.
  func resolve(_ name: String) -> Binding? {
    if let binding = scopes.lookup(name) { return binding }
    if name != "self", index.hasInstanceMember(name, in: unit.typeName) {
      return scopes.lookup("self") ?? memberObject(name)
    }
    return nil
  }

  /// In a value type (a SwiftUI view), the object a stored property holds: a closure that
  /// reads `model` captures the view's value, and with it that object.
  func memberObject(_ name: String) -> Binding? {
    if let known = memberObjectBindings[name] { return known }
    guard !unit.isStatic, let property = index.property(name, in: unit.typeName), property.keepsValue,
      !property.shape.isClosure, !property.shape.isCollection
    else { return nil }
    let typeName = property.shape.names.first
    let isObject =
      property.isObjectWrapper || typeName.map { [.class, .actor].contains(index.types[$0]?.kind) } == true
    guard isObject else { return nil }
    let root = newLocal(type: typeName, name: name)
    facts.memberObjects.insert(root)
    let binding = Binding(name: name, root: .local(root), isStrong: true, depth: 0, typeName: typeName)
    memberObjectBindings[name] = binding
    return binding
  }

  /// Records that every closure between the reference and the binding's scope captures it.
  func attribute(_ binding: Binding) {
    guard let root = binding.root else { return }
    for active in activeClosures where active.depth >= binding.depth {
      if root == .selfObject { facts.closures[active.closure].usesSelf = true }
      guard active.depth > binding.depth else { continue }
      if binding.isStrong {
        facts.closures[active.closure].strongCaptures.insert(root)
        if binding.isReboundSelf { facts.closures[active.closure].capturesReboundSelf = true }
      }
    }
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      return .skipChildren
    }
    let name = node.baseName.text
    guard !name.hasPrefix("$"), let binding = resolve(name) else { return .skipChildren }
    attribute(binding)
    return .skipChildren
  }

  override func visit(_ node: SuperExprSyntax) -> SyntaxVisitorContinueKind {
    if let binding = scopes.lookup("self") { attribute(binding) }
    return .skipChildren
  }

  override func visit(_ node: KeyPathExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  // Types and attributes hold no expression a closure could capture: not walked (a tenth of the nodes).
  override func visit(_ node: TypeAnnotationSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: ReturnClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: GenericArgumentClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: AttributeListSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: StringSegmentSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
    ["selector", "keyPath"].contains(node.macroName.text) ? .skipChildren : .visitChildren
  }

  // Types declared inside a body are not analysed.
  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  // MARK: Scopes

  override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
    scopes.push()
    return .visitChildren
  }
  override func visitPost(_ node: CodeBlockSyntax) { scopes.pop() }

  override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
    scopes.push()
    return .visitChildren
  }
  override func visitPost(_ node: IfExprSyntax) { scopes.pop() }

  override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind {
    scopes.push()
    let condition = node.conditions.trimmedDescription
    if condition == "true" || condition.contains("isCancelled") { markEndlessLoop(body: node.body) }
    return .visitChildren
  }
  override func visitPost(_ node: WhileStmtSyntax) { scopes.pop() }

  override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind {
    if node.condition.trimmedDescription == "true" { markEndlessLoop(body: node.body) }
    return .visitChildren
  }

  override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
    scopes.push()
    bindPatternNames(in: Syntax(node.pattern), elementOf: storageKey(node.sequence))
    if node.awaitKeyword != nil { markEndlessLoop(body: node.body) }
    return .visitChildren
  }
  override func visitPost(_ node: ForStmtSyntax) { scopes.pop() }

  override func visit(_ node: SwitchCaseSyntax) -> SyntaxVisitorContinueKind {
    scopes.push()
    bindPatternNames(in: Syntax(node.label))
    return .visitChildren
  }
  override func visitPost(_ node: SwitchCaseSyntax) { scopes.pop() }

  override func visit(_ node: CatchClauseSyntax) -> SyntaxVisitorContinueKind {
    scopes.push()
    scopes.bind(Binding(name: "error", root: nil, isStrong: true, depth: scopes.depth))
    for item in node.catchItems { if let pattern = item.pattern { bindPatternNames(in: Syntax(pattern)) } }
    return .visitChildren
  }
  override func visitPost(_ node: CatchClauseSyntax) { scopes.pop() }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    scopes.bind(Binding(name: node.name.text, root: nil, isStrong: true, depth: scopes.depth))
    scopes.push()
    for parameter in node.signature.parameterClause.parameters {
      let name = (parameter.secondName ?? parameter.firstName).text
      scopes.bind(Binding(name: name, root: .local(newLocal(type: nil)), isStrong: true, depth: scopes.depth))
    }
    return .visitChildren
  }
  override func visitPost(_ node: FunctionDeclSyntax) { scopes.pop() }

  // MARK: Forwarded to the extensions (overrides must be in the class)

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { enter(node) }
  override func visitPost(_ node: ClosureExprSyntax) { leave(node) }
  override func visit(_ node: ClosureCaptureClauseSyntax) -> SyntaxVisitorContinueKind { enter(node) }
  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { enter(node) }
  override func visitPost(_ node: VariableDeclSyntax) { leave(node) }
  override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind { enter(node) }
  override func visitPost(_ node: OptionalBindingConditionSyntax) { leave(node) }
  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { enter(node) }
  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind { enter(node) }

  /// Binds every identifier in a pattern as a local of its own (an element of `elementOf`'s storage, if given).
  func bindPatternNames(in node: Syntax, elementOf key: String? = nil) {
    for identifier in node.descendants(IdentifierPatternSyntax.self) {
      let name = identifier.identifier.text
      let binding = Binding(
        name: name, root: .local(newLocal(type: nil, name: name)), isStrong: true, depth: scopes.depth)
      binding.sourceKey = key
      scopes.bind(binding)
    }
  }

  /// Marks the innermost closure as running a loop that never ends, unless the
  /// loop's own body can leave it (`break`, `return`).
  func markEndlessLoop(body: CodeBlockSyntax) {
    guard let innermost = activeClosures.last else { return }
    let exits =
      body.descendants(BreakStmtSyntax.self, stoppingAt: [ClosureExprSyntax.self]).contains { _ in true }
      || body.descendants(ReturnStmtSyntax.self, stoppingAt: [ClosureExprSyntax.self]).contains { _ in true }
    if !exits { facts.closures[innermost.closure].hasEndlessLoop = true }
  }
}
