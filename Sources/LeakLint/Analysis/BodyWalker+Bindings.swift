import SwiftSyntax

extension BodyWalker {
  // MARK: Closures

  func closureIndex(_ node: ClosureExprSyntax) -> Int {
    if let index = closureByNode[node.id] { return index }
    facts.closures.append(
      ClosureInfo(kind: .literal, position: position(node.leftBrace), unit: unit.id, typeName: unit.typeName))
    closureByNode[node.id] = facts.closures.count - 1
    return facts.closures.count - 1
  }

  func enter(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    let closure = closureIndex(node)
    // The capture list is evaluated where the closure is made, outside it.
    var captured: [Binding] = []
    for item in node.signature?.capture?.items ?? [] {
      let isStrong = item.specifier == nil
      let isUnowned = item.specifier?.specifier.tokenKind == .keyword(.unowned)
      var source: Binding?
      // `[imageView]`, `[client = self.client]`: the value of a property of self, not self.
      var propertyCopy: String?
      if let value = item.initializer?.value {
        let unwrapped = value.unwrapped
        if let reference = unwrapped.as(DeclReferenceExprSyntax.self) {
          source = scopes.lookup(reference.baseName.text)
          if source == nil, index.hasInstanceMember(reference.baseName.text, in: unit.typeName) {
            propertyCopy = reference.baseName.text
          }
        } else if let member = unwrapped.as(MemberAccessExprSyntax.self), let base = member.base,
          aliasSource(of: base)?.root == .selfObject,
          index.property(member.declName.baseName.text, in: unit.typeName) != nil
        {
          propertyCopy = member.declName.baseName.text
        }
        for reference in value.descendantsOrSelf(DeclReferenceExprSyntax.self) {
          if let binding = resolve(reference.baseName.text) { attribute(binding) }
        }
      } else if let binding = scopes.lookup(item.name.text) {
        source = binding
        attribute(binding)
      } else if let selfBinding = resolve(item.name.text) {
        // Reading the property captures self in the closures around this one, not in this one.
        attribute(selfBinding)
        if selfBinding.root == .selfObject { propertyCopy = item.name.text } else { source = selfBinding }
      }
      let binding: Binding
      if let property = propertyCopy {
        let declared = index.property(property, in: unit.typeName)
        let root = newLocal(type: declared?.shape.names.first, name: item.name.text)
        facts.propertyCopies[root] = property
        binding = Binding(
          name: item.name.text, root: declared?.shape.isCollection == true ? nil : .local(root),
          isStrong: isStrong, depth: scopes.depth + 1, typeName: declared?.shape.names.first)
        binding.sourceKey = selfPropertyKey(property)
      } else {
        binding = Binding(
          name: item.name.text, root: source?.root, isStrong: isStrong && (source?.isStrong ?? true),
          depth: scopes.depth + 1, carried: source?.carried ?? [], typeName: source?.typeName)
        binding.isReboundSelf = source?.isReboundSelf ?? false
        binding.sourceKey = source?.sourceKey
      }
      if binding.isStrong, let root = binding.root {
        facts.closures[closure].strongCaptures.insert(root)
        if binding.isReboundSelf { facts.closures[closure].capturesReboundSelf = true }
      }
      if isUnowned, let root = binding.root { facts.closures[closure].unownedCaptures.insert(root) }
      captured.append(binding)
    }
    let elementKey = iteratedStorage(of: node)
    scopes.push()
    for binding in captured { scopes.bind(binding) }
    switch node.signature?.parameterClause {
    case .simpleInput(let list):
      for parameter in list { bindLocal(parameter.name.text, elementOf: elementKey) }
    case .parameterClause(let clause):
      for parameter in clause.parameters {
        bindLocal((parameter.secondName ?? parameter.firstName).text, elementOf: elementKey)
      }
    case nil: break
    }
    activeClosures.append(ActiveClosure(closure: closure, depth: scopes.depth, elementKey: elementKey))
    return .visitChildren
  }

  /// For a closure passed to `forEach` (or `map`…), the storage whose elements it is given:
  /// `timers.forEach { $0.invalidate() }` tears down what `timers` keeps.
  private func iteratedStorage(of node: ClosureExprSyntax) -> String? {
    var parent = node.parent
    if parent?.is(LabeledExprSyntax.self) == true { parent = parent?.parent?.parent }
    guard let call = parent?.as(FunctionCallExprSyntax.self),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      ["forEach", "map", "compactMap"].contains(member.declName.baseName.text), var base = member.base
    else { return nil }
    // `observers.values.forEach`, `tasks.values.forEach`
    if let inner = base.unwrapped.as(MemberAccessExprSyntax.self),
      ["values", "keys"].contains(inner.declName.baseName.text), let innerBase = inner.base
    {
      base = innerBase
    }
    return storageKey(base)
  }

  func leave(_ node: ClosureExprSyntax) {
    activeClosures.removeLast()
    scopes.pop()
  }

  func enter(_ node: ClosureCaptureClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  func bindLocal(_ name: String, elementOf key: String? = nil) {
    let binding = Binding(
      name: name, root: .local(newLocal(type: nil, name: name)), isStrong: true, depth: scopes.depth)
    binding.sourceKey = key
    scopes.bind(binding)
  }

  // MARK: Local variables

  func enter(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    let isWeak = node.modifiers.contains {
      $0.name.tokenKind == .keyword(.weak) || $0.name.tokenKind == .keyword(.unowned)
    }
    var bindings: [Binding] = []
    for binding in node.bindings {
      guard binding.accessorBlock == nil else { continue }
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
        for identifier in binding.pattern.descendantsOrSelf(IdentifierPatternSyntax.self) {
          bindings.append(
            Binding(
              name: identifier.identifier.text, root: .local(newLocal(type: nil)), isStrong: true,
              depth: scopes.depth))
        }
        continue
      }
      let shape = TypeShape(binding.typeAnnotation?.type)
      bindings.append(
        makeBinding(name: name, value: binding.initializer?.value, shape: shape, isStrong: !isWeak))
    }
    pendingBindings[node.id] = bindings
    return .visitChildren
  }

  func leave(_ node: VariableDeclSyntax) {
    for binding in pendingBindings.removeValue(forKey: node.id) ?? [] { scopes.bind(binding) }
  }

  func enter(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind { .visitChildren }

  func leave(_ node: OptionalBindingConditionSyntax) {
    guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
    let value: ExprSyntax =
      node.initializer?.value ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(name)))
    let binding = makeBinding(
      name: name, value: value, shape: TypeShape(node.typeAnnotation?.type), isStrong: true, isUnwrap: true)
    scopes.bind(binding)
  }

  /// A new local named `name`, initialised with `value`: an alias of self or
  /// of a local object, or an object of its own.
  func makeBinding(name: String, value: ExprSyntax?, shape: TypeShape, isStrong: Bool, isUnwrap: Bool = false)
    -> Binding
  {
    let depth = scopes.depth
    if let value, let source = aliasSource(value) {
      let binding = Binding(
        name: name, root: source.root, isStrong: isStrong, depth: depth, carried: source.carried,
        typeName: source.typeName)
      binding.isReboundSelf =
        source.root == .selfObject && (source.isReboundSelf || !source.isStrong || isUnwrap)
      binding.isCollection = source.isCollection
      binding.sourceKey = source.sourceKey
      return binding
    }
    var typeName = shape.names.first
    var constructs = false
    var core = value?.unwrapped
    // `… as! CartCell`: the value is the left side, its type the right.
    if let sequence = core?.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
      let elements = Array(sequence.elements)
      if elements[1].is(UnresolvedAsExprSyntax.self) {
        core = elements[0].unwrapped
        typeName = typeName ?? elements[2].as(TypeExprSyntax.self).flatMap { TypeShape($0.type).names.first }
      }
    }
    if let call = value?.unwrapped.as(FunctionCallExprSyntax.self),
      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
      callee.baseName.text.first?.isUppercase == true
    {
      typeName = typeName ?? callee.baseName.text
      constructs = true
    }
    if typeName == nil, !constructs, let value, let path = pathInfo(value) { typeName = path.typeName }
    let root = newLocal(type: typeName, name: name)
    var carried: [Carried] = value.map { self.carried($0) } ?? []
    carried.append(.object(.local(root)))
    // `let child = makePaymentCoordinator()`: what the linted function is declared to return.
    if typeName == nil, !constructs, let call = core?.as(FunctionCallExprSyntax.self),
      let callIndex = callByNode[call.id], let made = declaredResultType(ofCall: callIndex)
    {
      typeName = made
      facts.localTypes[root] = made
    }
    let binding = Binding(name: name, root: .local(root), isStrong: isStrong, depth: depth, carried: carried)
    binding.typeName = typeName
    if let value, !constructs { binding.sourceKey = storageKey(value) }
    // `let heartbeat = Task { … }`, `let session = URLSession(…)`: kept in this local.
    if let call = core?.as(FunctionCallExprSyntax.self), let callIndex = callByNode[call.id] {
      keep(resultOf: callIndex, in: "local:\(root)")
    }
    binding.isCollection = shape.isCollection || (value?.unwrapped.is(ArrayExprSyntax.self) ?? false)
    // `tableView.dequeueReusableCell(…)`: a table or collection view keeps its cells.
    if let call = core?.as(FunctionCallExprSyntax.self),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text.hasPrefix("dequeueReusable"), let base = member.base,
      let owner = viewOwner(base)
    {
      facts.sinks.append(
        Sink(
          owner: owner, carried: [.object(.local(root))], position: position(call),
          path: PathText(base),
          unit: unit.id, via: member.declName.baseName.text))
    }
    // `let button = self.retryButton`: the local is an object self owns.
    if let value, !constructs, let path = pathInfo(value), path.root == .selfObject, path.property != nil {
      var sink = Sink(
        owner: .selfObject, carried: [.object(.local(root))], position: position(value),
        path: PathText(value), unit: unit.id, property: path.property)
      sink.storageKey = binding.sourceKey
      facts.sinks.append(sink)
    }
    return binding
  }

  /// The type the functions a call reaches are declared to return, when they agree on one the
  /// linted code declares as a class, an actor or a protocol (a framework's type says nothing
  /// the rules could use).
  private func declaredResultType(ofCall callIndex: Int) -> String? {
    let call = facts.calls[callIndex]
    guard !call.isInitializer else { return nil }
    let candidates = index.candidates(
      name: call.name, labels: call.labels, trailingLabels: call.trailingLabels,
      receiverType: call.receiverType)
    guard let first = candidates.first, let type = index.functions[first].resultType,
      candidates.allSatisfy({ index.functions[$0].resultType == type }),
      [.class, .actor, .protocol].contains(index.types[type]?.kind)
    else { return nil }
    return type
  }

  /// Who keeps a table or collection view: in `func tableView(_ tableView: …)`
  /// the parameter is self's own table when self keeps one under that name.
  private func viewOwner(_ base: ExprSyntax) -> Root? {
    if let reference = base.unwrapped.as(DeclReferenceExprSyntax.self), case .function(let name) = unit.kind,
      name == reference.baseName.text, scopes.lookup("self") != nil,
      KnownAPI.ownedInheritedProperties.contains(name)
        || index.property(name, in: unit.typeName)?.ownsTarget == true
    {
      return .selfObject
    }
    return pathInfo(base)?.root
  }

  /// Records where the result of a call that must be torn down (a task, a timer, a token, a session) is kept.
  func keep(resultOf callIndex: Int, in key: String) {
    for task in facts.tasks.indices where facts.tasks[task].call == callIndex {
      facts.tasks[task].storageKey = key
    }
    for use in facts.apiUses.indices
    where facts.apiUses[use].call == callIndex && facts.apiUses[use].kind != .dispatchSource {
      facts.apiUses[use].storageKey = key
    }
  }

  /// The binding `value` names, if it is a plain reference (`self`, `strongSelf`, `alert`).
  private func aliasSource(_ value: ExprSyntax) -> Binding? {
    guard let reference = value.unwrapped.as(DeclReferenceExprSyntax.self) else { return nil }
    let name = reference.baseName.text
    guard let binding = scopes.lookup(name), binding.root != nil else { return nil }
    return binding
  }
}

extension SyntaxProtocol {
  /// This node, if it is a `T`, then its descendants of type `T`.
  func descendantsOrSelf<T: SyntaxProtocol>(_ type: T.Type) -> [T] {
    (self.as(T.self).map { [$0] } ?? []) + descendants(type)
  }
}
