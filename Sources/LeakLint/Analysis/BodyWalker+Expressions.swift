import SwiftSyntax

/// Where a path (`self.retryButton.action`, `alert`, `cancellables`) keeps things.
struct PathInfo {
  /// Whose storage it is; `nil` when no tracked object owns it (a global, a weak property).
  var root: Root?
  /// The first property of self on the path.
  var property: String?
  /// The declared type of the last step, if known.
  var typeName: String?
  var isCollection = false
}

extension BodyWalker {
  // MARK: What an expression keeps

  /// The closures, objects and parameters the value of `expression` keeps alive.
  func carried(_ expression: ExprSyntax) -> [Carried] {
    let expression = expression.unwrapped
    if let closure = expression.as(ClosureExprSyntax.self) {
      return [.closure(closureIndex(closure))]
    }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if let binding = scopes.lookup(name) {
        return binding.carried + (binding.root.map { [.object($0)] } ?? [])
      }
      if isMethodReference(name), let selfBinding = scopes.lookup("self") {
        return [.closure(methodReference(reference, name: name, receiver: selfBinding))]
      }
      return []
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
      let name = member.declName.baseName.text
      if let binding = aliasSource(of: base), binding.root == .selfObject, isMethodReference(name) {
        return [.closure(methodReference(member, name: name, receiver: binding))]
      }
      return []
    }
    if let call = expression.as(FunctionCallExprSyntax.self) {
      if call.calledExpression.is(ClosureExprSyntax.self) { return [] }
      return [.callResult(callIndex(call))]
    }
    if let ternary = expression.as(TernaryExprSyntax.self) {
      return carried(ternary.thenExpression) + carried(ternary.elseExpression)
    }
    if let ternary = expression.as(UnresolvedTernaryExprSyntax.self) {
      return carried(ternary.thenExpression)
    }
    if let sequence = expression.as(SequenceExprSyntax.self) {
      return sequence.elements.flatMap { carried($0) }
    }
    if let ifExpression = expression.as(IfExprSyntax.self) {
      var result = lastExpression(of: ifExpression.body).map { carried($0) } ?? []
      switch ifExpression.elseBody {
      case .ifExpr(let next): result += carried(ExprSyntax(next))
      case .codeBlock(let block): result += lastExpression(of: block).map { carried($0) } ?? []
      case nil: break
      }
      return result
    }
    if let switchExpression = expression.as(SwitchExprSyntax.self) {
      return switchExpression.cases.flatMap { item -> [Carried] in
        guard case .switchCase(let switchCase) = item,
          let last = switchCase.statements.last?.item.as(ExprSyntax.self)
        else { return [] }
        return carried(last)
      }
    }
    if let array = expression.as(ArrayExprSyntax.self) {
      return array.elements.flatMap { carried($0.expression) }
    }
    if let dictionary = expression.as(DictionaryExprSyntax.self),
      case .elements(let elements) = dictionary.content
    {
      return elements.flatMap { carried($0.value) }
    }
    if let cast = expression.as(AsExprSyntax.self) { return carried(cast.expression) }
    return []
  }

  private func lastExpression(of block: CodeBlockSyntax) -> ExprSyntax? {
    block.statements.last?.item.as(ExprSyntax.self)
  }

  /// Whether `name` used as a value is one of self's methods. A delegate callback named after its
  /// first parameter (`window(_ window: NSWindow, …)`, `tableView(_ tableView:…)`) is not what a
  /// bare `window` means: that is a property the superclass (AppKit, UIKit) declares.
  private func isMethodReference(_ name: String) -> Bool {
    guard index.hasMethod(name, in: unit.typeName), index.property(name, in: unit.typeName) == nil else {
      return false
    }
    let methods = index.supertypes(of: unit.typeName).flatMap {
      index.functionsByMember[$0 + "." + name] ?? []
    }
    return methods.contains { function in
      let first = index.functions[function].parameters.first
      return !(first?.label == nil && first?.name == name)
    }
  }

  /// A method used as a value (`handleResponse`, `self.refresh`): a closure that captures its receiver.
  private func methodReference(_ node: some SyntaxProtocol, name: String, receiver: Binding) -> Int {
    if let existing = closureByNode[node.id] { return existing }
    var info = ClosureInfo(
      kind: .methodReference(name), position: position(node), unit: unit.id, typeName: unit.typeName)
    if receiver.isStrong, let root = receiver.root {
      info.strongCaptures.insert(root)
      info.capturesReboundSelf = receiver.isReboundSelf
    }
    facts.closures.append(info)
    closureByNode[node.id] = facts.closures.count - 1
    return facts.closures.count - 1
  }

  /// The binding a plain reference names (`self`, `strongSelf`).
  func aliasSource(of expression: ExprSyntax) -> Binding? {
    guard let reference = expression.unwrapped.as(DeclReferenceExprSyntax.self) else { return nil }
    return scopes.lookup(reference.baseName.text)
  }

  // MARK: Whose storage a path is

  func pathInfo(_ expression: ExprSyntax) -> PathInfo? {
    let expression = expression.unwrapped
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if let binding = scopes.lookup(name) {
        return PathInfo(
          root: binding.root, typeName: binding.root == .selfObject ? unit.typeName : binding.typeName,
          isCollection: binding.isCollection)
      }
      guard scopes.lookup("self") != nil else { return nil }
      return selfMember(name)
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
      let name = member.declName.baseName.text
      guard let baseInfo = pathInfo(base) else { return nil }
      if baseInfo.root == .selfObject && baseInfo.property == nil && isSelfValue(base) {
        return selfMember(name)
      }
      if let typeName = baseInfo.typeName, let property = index.property(name, in: typeName) {
        return PathInfo(
          root: property.ownsTarget ? baseInfo.root : nil, property: baseInfo.property,
          typeName: property.shape.names.first, isCollection: property.shape.isCollection)
      }
      return PathInfo(root: baseInfo.root, property: baseInfo.property)
    }
    if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) {
      guard var info = pathInfo(subscriptCall.calledExpression) else { return nil }
      info.isCollection = false
      info.typeName = nil
      return info
    }
    return nil
  }

  /// Whether `expression` is self itself (`self`, `strongSelf`), not a path from it.
  private func isSelfValue(_ expression: ExprSyntax) -> Bool {
    aliasSource(of: expression)?.root == .selfObject
  }

  /// A member of self used as storage: owned when held strongly (or an outlet).
  private func selfMember(_ name: String) -> PathInfo? {
    if let property = index.property(name, in: unit.typeName) {
      // A screen's `view`, computed from its own storage, is still its own.
      let owns =
        property.ownsTarget || (property.isComputed && KnownAPI.ownedInheritedProperties.contains(name))
      return PathInfo(
        root: owns ? .selfObject : nil, property: name, typeName: property.shape.names.first,
        isCollection: property.shape.isCollection)
    }
    if KnownAPI.ownedInheritedProperties.contains(name) { return PathInfo(root: .selfObject, property: name) }
    if index.hasMethod(name, in: unit.typeName) { return nil }
    let typeIsUnknown = unit.typeName.flatMap { index.types[$0]?.kind } == .unknown
    return typeIsUnknown ? PathInfo(root: .selfObject, property: name) : nil
  }

  // MARK: Assignments

  /// `nil`, `[]`, `[:]`, `List()`: what a property is emptied (or reset) with.
  static func isEmptyValue(_ value: ExprSyntax) -> Bool {
    if value.is(NilLiteralExprSyntax.self) { return true }
    if let call = value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
      call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text.first?.isUppercase == true
    {
      return true
    }
    if let array = value.as(ArrayExprSyntax.self) { return array.elements.isEmpty }
    if let dictionary = value.as(DictionaryExprSyntax.self), case .colon = dictionary.content { return true }
    return false
  }

  func enter(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    guard elements.count >= 3 else { return .visitChildren }
    let isAssignment = elements[1].is(AssignmentExprSyntax.self)
    let isAppend = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "+="
    guard isAssignment || isAppend else { return .visitChildren }
    recordCollectionAssignment(target: elements[0], values: Array(elements[2...]), isAppend: isAppend)
    assign(to: elements[0], values: Array(elements[2...]))
    return .visitChildren
  }

  private func assign(to target: ExprSyntax, values: [ExprSyntax]) {
    let value = values.flatMap { carried($0) }
    recordPropertyStore(target, value, values.count == 1 ? values[0] : nil)
    let key = target.is(DiscardAssignmentExprSyntax.self) ? nil : storageKey(target)
    if values.count == 1, let key { alias(values[0], as: key) }
    let holderKey = target.unwrapped.as(MemberAccessExprSyntax.self)?.base.flatMap { storageKey($0) }
    if values.count == 1, Self.isEmptyValue(values[0]), unit.kind != .deinitializer, let key {
      recordTeardown("drain", of: key)
    }
    if let reference = target.unwrapped.as(DeclReferenceExprSyntax.self),
      let binding = scopes.lookup(reference.baseName.text), binding.root != .selfObject
    {
      binding.carried += value
      return
    }
    guard !target.is(DiscardAssignmentExprSyntax.self), let path = pathInfo(target) else {
      if !target.is(DiscardAssignmentExprSyntax.self) {
        var sink = Sink(
          owner: nil, carried: value, position: position(target), path: PathText(target),
          unit: unit.id)
        sink.storageKey = key
        sink.holderKey = holderKey
        sink.isStatic = isStaticPath(target)
        facts.sinks.append(sink)
      }
      return
    }
    // `self.parser.delegate = nil`: the owner clears the back reference by hand.
    if values.count == 1, Self.isEmptyValue(values[0]), unit.kind != .deinitializer,
      unit.kind != .initializer, let member = target.unwrapped.as(MemberAccessExprSyntax.self),
      let base = member.base, let baseType = pathInfo(base)?.typeName
    {
      facts.drainedProperties.insert(baseType + "." + member.declName.baseName.text)
    }
    let isDirectSelfProperty =
      path.root == .selfObject && path.property != nil && !target.unwrapped.is(SubscriptCallExprSyntax.self)
    if isDirectSelfProperty, let property = path.property {
      if values.count == 1, Self.isEmptyValue(values[0]) {
        drained(property)
      }
      if values.count == 1, let call = values[0].unwrapped.as(FunctionCallExprSyntax.self),
        call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text.first?.isUppercase == true,
        let typeName = unit.typeName
      {
        facts.constructedProperties.insert(typeName + "." + property)
      }
    }
    var sink = Sink(
      owner: path.root, carried: value, position: position(target), path: PathText(target),
      unit: unit.id, property: path.root == .selfObject ? path.property : nil)
    sink.storageKey = key
    sink.holderKey = holderKey
    facts.sinks.append(sink)
  }

  /// Records a value assigned to a property (`form.delegate = self`, `self.parent = parent`), with the
  /// declared type of the object whose property it is.
  private func recordPropertyStore(_ target: ExprSyntax, _ value: [Carried], _ expression: ExprSyntax?) {
    // A literal (`x.count = 0`, `label.text = "…"`) stores no object.
    guard !value.isEmpty || expression.map({ lastMemberName($0) != nil }) == true else { return }
    let target = target.unwrapped
    var store: PropertyStore
    if let member = target.as(MemberAccessExprSyntax.self), let base = member.base {
      let ownerType = aliasSource(of: base)?.root == .selfObject ? unit.typeName : pathInfo(base)?.typeName
      store = PropertyStore(
        ownerType: ownerType, property: member.declName.baseName.text, carried: value, unit: unit.id)
    } else if let reference = target.as(DeclReferenceExprSyntax.self),
      scopes.lookup(reference.baseName.text) == nil,
      index.property(reference.baseName.text, in: unit.typeName) != nil
    {
      store = PropertyStore(
        ownerType: unit.typeName, property: reference.baseName.text, carried: value, unit: unit.id)
    } else {
      return
    }
    // `container.contentView = chevron`: the value is self's property, of its declared (or made) type.
    if let expression, aliasSource(of: expression) == nil, let path = pathInfo(expression), path.root != nil,
      let last = lastMemberName(expression)
    {
      let owner = path.root == .selfObject && path.property == last ? unit.typeName : nil
      let declared = owner.flatMap { index.property(last, in: $0) }
      if let made = declared?.initialValueType {
        store.valueType = made
        store.valueTypeIsExact = true
      } else {
        store.valueType = path.typeName
      }
    }
    facts.propertyStores.append(store)
  }

  private func lastMemberName(_ expression: ExprSyntax) -> String? {
    let expression = expression.unwrapped
    if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
    return expression.as(DeclReferenceExprSyntax.self)?.baseName.text
  }

  /// A path that starts at a type (`Session.shared.onEvent`, `Registry.handlers`): static storage, alive for good.
  func isStaticPath(_ expression: ExprSyntax) -> Bool {
    var current = expression.unwrapped
    while let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
      current = base.unwrapped
    }
    guard let reference = current.as(DeclReferenceExprSyntax.self) else { return false }
    let name = reference.baseName.text
    return name.first?.isUppercase == true && scopes.lookup(name) == nil
      && current.id != expression.unwrapped.id
      && index.types[name] != nil
  }

  /// `EventBus.shared` itself: a type's static member.
  func isStaticType(_ expression: ExprSyntax) -> Bool {
    guard let member = expression.unwrapped.as(MemberAccessExprSyntax.self),
      let base = member.base?.unwrapped.as(DeclReferenceExprSyntax.self)
    else { return false }
    let name = base.baseName.text
    return name.first?.isUppercase == true && scopes.lookup(name) == nil
      && index.types[name]?.staticMembers.contains(member.declName.baseName.text) == true
  }

  // MARK: Storage keys

  /// Records that a local's value (`timer`) is also kept in `key` (`self.timer = timer`), so a
  /// teardown of either ends it.
  func alias(_ value: ExprSyntax, as key: String) {
    guard let reference = value.unwrapped.as(DeclReferenceExprSyntax.self),
      let binding = scopes.lookup(reference.baseName.text), case .local(let id) = binding.root
    else { return }
    let local = binding.sourceKey ?? "local:\(id)"
    guard local != key else { return }
    facts.storageAliases[local, default: []].append(key)
  }

  /// Names the storage a path is (`Inbox.observer` for `self.observer`, `Cell.disposeBag` for
  /// `cell.disposeBag`, `local:3` for a local), so a teardown can be matched to what it ends.
  func storageKey(_ expression: ExprSyntax) -> String? {
    let expression = expression.unwrapped
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if name.hasPrefix("$"), name.dropFirst().allSatisfy(\.isNumber) {
        return activeClosures.last?.elementKey
      }
      if let binding = scopes.lookup(name) {
        if binding.root == .selfObject && binding.sourceKey == nil { return "self" }
        if let key = binding.sourceKey { return key }
        if case .local(let id) = binding.root { return "local:\(id)" }
        return nil
      }
      return index.property(name, in: unit.typeName) != nil ? selfPropertyKey(name) : nil
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
      let name = member.declName.baseName.text
      if aliasSource(of: base)?.root == .selfObject, aliasSource(of: base)?.sourceKey == nil {
        return selfPropertyKey(name)
      }
      guard let typeName = pathInfo(base)?.typeName else { return "?." + name }
      return (index.property(name, in: typeName)?.owner ?? typeName) + "." + name
    }
    // `channels[id]` is kept in `channels`.
    if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) {
      return storageKey(subscriptCall.calledExpression)
    }
    return nil
  }

  /// The storage key of self's property `name`: `Owner.name`, named by the type that declares it.
  func selfPropertyKey(_ name: String) -> String {
    (index.property(name, in: unit.typeName)?.owner ?? unit.typeName ?? "?") + "." + name
  }
}
