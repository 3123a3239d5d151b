import SwiftSyntax

/// Collections that outlive what they hold, for `global-registration`: a static
/// or global array, set or dictionary, or one a singleton keeps. The walk
/// records what is added to them (`screens.append(screen)`, `live[id] = self`)
/// and every place elements leave them (`removeAll { … }`, `live[id] = nil`,
/// `screens = []`), and which type a call's receiver names
/// (`OpenScreens.register(self)`), so the rule can follow a function that adds
/// its parameter.
extension BodyWalker {
  /// Calls that add their first argument to the receiver.
  static let addingCalls: Set<String> = ["append", "insert", "updateValue", "formUnion"]

  /// Calls that take elements out of the receiver, or empty it.
  static let removingCalls: Set<String> = KnownAPI.drainingCalls.union([
    "subtract", "formIntersection", "formSymmetricDifference",
  ])

  /// Records a call on such a collection: an addition of what its first argument carries, or a removal.
  func recordCollectionCall(
    name: String, receiver: ExprSyntax, arguments: [[Carried]], at position: SourcePosition
  ) {
    let adds = Self.addingCalls.contains(name)
    guard adds || Self.removingCalls.contains(name), let key = collectionKey(receiver) else { return }
    if !adds {
      facts.collectionRemovals.append(CollectionRemoval(key: key, unit: unit.id, position: position))
      return
    }
    guard let first = arguments.first else { return }
    let kept = Self.objects(in: first)
    guard !kept.isEmpty else { return }
    facts.collectionInserts.append(
      CollectionInsert(
        key: key, carried: kept, isKeyed: name == "updateValue", unit: unit.id, position: position))
  }

  /// Records an assignment to such a collection or to one of its elements: `live[id] = self` and
  /// `screens += [self]` add; `live[id] = nil`, `screens = []` and `screens = screens.filter { … }`
  /// take elements out.
  func recordCollectionAssignment(target: ExprSyntax, values: [ExprSyntax], isAppend: Bool) {
    guard !target.is(DiscardAssignmentExprSyntax.self), let key = collectionKey(target) else { return }
    let isElement = target.unwrapped.is(SubscriptCallExprSyntax.self)
    let isNil = values.count == 1 && values[0].unwrapped.is(NilLiteralExprSyntax.self)
    guard isAppend || (isElement && !isNil) else {
      facts.collectionRemovals.append(CollectionRemoval(key: key, unit: unit.id, position: position(target)))
      return
    }
    let kept = Self.objects(in: values.flatMap { carried($0) })
    guard !kept.isEmpty else { return }
    facts.collectionInserts.append(
      CollectionInsert(
        key: key, carried: kept, isKeyed: isElement && !isAppend, unit: unit.id, position: position(target)))
  }

  /// The objects and parameters a value is (not what a call's result or a closure keeps: a weak box
  /// `Weak(self)` or an `ObjectIdentifier(self)` keeps no object the rule follows).
  private static func objects(in carried: [Carried]) -> [Carried] {
    carried.filter {
      switch $0 {
      case .object, .parameter: true
      case .closure, .callResult: false
      }
    }
  }

  /// The type a call's receiver names: a type (`OpenScreens`, `Self`) or a singleton's shared
  /// instance (`Registry.shared`); for a static method called bare in a static one, its own type.
  func typeReceiver(of receiver: ExprSyntax?, name: String) -> String? {
    guard let receiver else {
      guard unit.isStatic, let typeName = unit.typeName,
        index.types[typeName]?.staticMembers.contains(name) == true
      else { return nil }
      return typeName
    }
    return typeNamed(receiver) ?? sharedInstanceType(receiver)
  }

  /// The collection a path names, if it outlives what it holds or may (a singleton's, decided by the
  /// rule): `static:OpenScreens.screens`, `global:openScreens`, `Registry.items`. An element
  /// (`live[id]`) is its collection's.
  func collectionKey(_ expression: ExprSyntax) -> String? {
    let expression = expression.unwrapped
    if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) {
      return collectionKey(subscriptCall.calledExpression)
    }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      guard scopes.lookup(name) == nil else { return nil }
      if unit.isStatic, let owner = staticCollectionOwner(name, in: unit.typeName) {
        return "static:\(owner).\(name)"
      }
      if !unit.isStatic, scopes.lookup("self") != nil, let property = index.property(name, in: unit.typeName)
      {
        return property.keepsValue && property.shape.isCollection ? property.owner + "." + name : nil
      }
      return index.globalCollections.contains(name) ? "global:" + name : nil
    }
    guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.unwrapped else {
      return nil
    }
    let name = member.declName.baseName.text
    if let typeName = typeNamed(base), let owner = staticCollectionOwner(name, in: typeName) {
      return "static:\(owner).\(name)"
    }
    let isSelf = aliasSource(of: base).map { $0.root == .selfObject && $0.sourceKey == nil } ?? false
    guard let holder = isSelf ? unit.typeName : sharedInstanceType(base),
      let property = index.property(name, in: holder), property.keepsValue, property.shape.isCollection
    else { return nil }
    return property.owner + "." + name
  }

  /// The type that declares the static collection `name`, `typeName` or one it inherits from.
  private func staticCollectionOwner(_ name: String, in typeName: String?) -> String? {
    index.supertypes(of: typeName).first { index.types[$0]?.staticCollections.contains(name) == true }
  }

  /// The linted type an expression names: `OpenScreens`, `Self`, `Outer.Registry`.
  private func typeNamed(_ expression: ExprSyntax) -> String? {
    let expression = expression.unwrapped
    let name: String
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      if reference.baseName.tokenKind == .keyword(.Self) { return unit.typeName }
      name = reference.baseName.text
      guard scopes.lookup(name) == nil else { return nil }
    } else if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
      typeNamed(base) != nil
    {
      name = member.declName.baseName.text
    } else {
      return nil
    }
    return name.first?.isUppercase == true && index.types[name] != nil ? name : nil
  }

  /// The type of a singleton's shared instance: `Registry.shared`, where `Registry` keeps one of
  /// its own in a static property.
  private func sharedInstanceType(_ expression: ExprSyntax) -> String? {
    guard let member = expression.unwrapped.as(MemberAccessExprSyntax.self), let base = member.base,
      let typeName = typeNamed(base), let info = index.types[typeName], info.hasStaticInstance,
      info.staticMembers.contains(member.declName.baseName.text)
    else { return nil }
    return typeName
  }
}
