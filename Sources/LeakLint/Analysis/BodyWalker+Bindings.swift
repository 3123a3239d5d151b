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
      var source: Binding?
      if let value = item.initializer?.value {
        let unwrapped = value.unwrapped
        if let reference = unwrapped.as(DeclReferenceExprSyntax.self) {
          source = resolve(reference.baseName.text)
        }
        for reference in value.descendantsOrSelf(DeclReferenceExprSyntax.self) {
          if let binding = resolve(reference.baseName.text) { attribute(binding) }
        }
      } else {
        source = resolve(item.name.text)
        if let source { attribute(source) }
      }
      let binding = Binding(
        name: item.name.text, root: source?.root, isStrong: isStrong && (source?.isStrong ?? true),
        depth: scopes.depth + 1)
      binding.isReboundSelf = source?.isReboundSelf ?? false
      if binding.isStrong, let root = binding.root {
        facts.closures[closure].strongCaptures.insert(root)
        if binding.isReboundSelf { facts.closures[closure].capturesReboundSelf = true }
      }
      captured.append(binding)
    }
    scopes.push()
    for binding in captured { scopes.bind(binding) }
    switch node.signature?.parameterClause {
    case .simpleInput(let list):
      for parameter in list { bindLocal(parameter.name.text) }
    case .parameterClause(let clause):
      for parameter in clause.parameters { bindLocal((parameter.secondName ?? parameter.firstName).text) }
    case nil: break
    }
    activeClosures.append(ActiveClosure(closure: closure, depth: scopes.depth))
    return .visitChildren
  }

  func leave(_ node: ClosureExprSyntax) {
    activeClosures.removeLast()
    scopes.pop()
  }

  func enter(_ node: ClosureCaptureClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  func bindLocal(_ name: String) {
    scopes.bind(
      Binding(name: name, root: .local(newLocal(type: nil, name: name)), isStrong: true, depth: scopes.depth))
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
    let root = newLocal(type: typeName, name: name)
    var carried: [Carried] = value.map { self.carried($0) } ?? []
    carried.append(.object(.local(root)))
    let binding = Binding(name: name, root: .local(root), isStrong: isStrong, depth: depth, carried: carried)
    binding.typeName = typeName
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
      facts.sinks.append(
        Sink(
          owner: .selfObject, carried: [.object(.local(root))], position: position(value),
          path: PathText(value), unit: unit.id, property: path.property))
    }
    return binding
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
