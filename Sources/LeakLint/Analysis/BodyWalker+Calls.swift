import SwiftSyntax

extension BodyWalker {
  func enter(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if !node.calledExpression.is(ClosureExprSyntax.self) { _ = callIndex(node) }
    return .visitChildren
  }

  /// The call's record, made the first time the call is met (as a statement or inside an expression).
  func callIndex(_ call: FunctionCallExprSyntax) -> Int {
    if let existing = callByNode[call.id] { return existing }
    var callee = call.calledExpression.unwrapped
    if let specialized = callee.as(GenericSpecializationExprSyntax.self) { callee = specialized.expression }
    var name = ""
    var receiver: ExprSyntax?
    var isInitializer = false
    if let reference = callee.as(DeclReferenceExprSyntax.self) {
      name = reference.baseName.text
      isInitializer = name.first?.isUppercase == true && scopes.lookup(name) == nil
    } else if let member = callee.as(MemberAccessExprSyntax.self) {
      name = member.declName.baseName.text
      receiver = member.base
      if name == "init", let base = member.base {
        name = base.trimmedDescription.split(separator: ".").last.map(String.init) ?? name
        isInitializer = true
        receiver = nil
      }
    }
    let labels = call.arguments.map { $0.label?.text }
    var trailingLabels: [String?] = call.trailingClosure == nil ? [] : [nil]
    trailingLabels += call.additionalTrailingClosures.map { $0.label.text }
    var argumentExpressions = call.arguments.map(\.expression)
    if let trailing = call.trailingClosure { argumentExpressions.append(ExprSyntax(trailing)) }
    argumentExpressions += call.additionalTrailingClosures.map { ExprSyntax($0.closure) }
    var arguments = argumentExpressions.map { carried($0) }
    let hasClosureArgument = arguments.contains {
      $0.contains { if case .closure = $0 { true } else { false } }
    }
    let repeatsFalse = call.arguments.contains {
      $0.label?.text == "repeats"
        && $0.expression.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.false)
    }
    let known = KnownAPI.semantics(
      name: name, labels: labels, trailingLabels: trailingLabels, isInitializer: isInitializer,
      hasClosureArgument: hasClosureArgument, repeatsFalse: repeatsFalse)

    var flow = CallFlow(
      unit: unit.id, name: name, labels: labels, trailingLabels: trailingLabels, arguments: arguments,
      receiverPath: receiver.map { PathText($0) } ?? PathText("self"), isInitializer: isInitializer,
      position: position(call), known: known)
    if let receiver {
      let path = pathInfo(receiver)
      flow.receiverOwner = path?.root
      flow.receiverType = path?.typeName
      flow.receiverIsCollection = path?.isCollection ?? false
      if path?.root == .selfObject { flow.receiverProperty = path?.property }
      if let property = flow.receiverProperty, KnownAPI.drainingCalls.contains(name) {
        drained(property)
      }
      if case .local(let id) = path?.root, !parameterRoots.contains(id) { flow.receiverIsLocalValue = true }
    } else if !isInitializer, index.hasMethod(name, in: unit.typeName), scopes.lookup("self") != nil {
      flow.receiverOwner = .selfObject
      flow.receiverType = unit.typeName
    }

    switch known {
    case .resultKeepsClosures(let tag) where tag != .none:
      tagClosures(in: arguments, tag)
    case .subscription:
      tagClosures(in: arguments, .combine)
      var chain = receiver
      while let link = chain?.unwrapped.as(FunctionCallExprSyntax.self) {
        var expressions = link.arguments.map(\.expression)
        if let trailing = link.trailingClosure { expressions.append(ExprSyntax(trailing)) }
        let linkClosures = expressions.filter { $0.unwrapped.is(ClosureExprSyntax.self) }.map { carried($0) }
        tagClosures(in: linkClosures, .combine)
        arguments.append(contentsOf: linkClosures)
        chain = link.calledExpression.as(MemberAccessExprSyntax.self)?.base
      }
      flow.arguments = arguments
    case .assignOn:
      let argumentList = Array(call.arguments)
      if let index = labels.firstIndex(of: "on"),
        let binding = aliasSource(of: argumentList[index].expression)
      {
        var info = ClosureInfo(
          kind: .assignOn, position: position(argumentList[index]), unit: unit.id, typeName: unit.typeName)
        info.tag = .combine
        if binding.isStrong, let root = binding.root { info.strongCaptures.insert(root) }
        facts.closures.append(info)
        flow.arguments = [[.closure(facts.closures.count - 1)]]
      }
    case .storeIn:
      if let target = call.arguments.first?.expression, let receiver {
        let path = pathInfo(target)
        facts.sinks.append(
          Sink(
            owner: path?.root, carried: carried(receiver), position: position(call),
            path: PathText(target),
            unit: unit.id, property: path?.root == .selfObject ? path?.property : nil, via: "store(in:)"))
      }
    case .root(let kind):
      var use = APIUse(
        kind: kind, carried: arguments.flatMap { $0 }, position: position(call), unit: unit.id, name: name)
      for argument in call.arguments where ["target", "delegate"].contains(argument.label?.text) {
        if let binding = aliasSource(of: argument.expression), binding.isStrong {
          use.target = binding.root
          use.position = position(argument)
        }
      }
      use.storedIn = storedProperty(of: call)
      facts.apiUses.append(use)
    default: break
    }

    facts.calledNames.insert(name)
    if KnownAPI.teardownCalls.contains(name) {
      facts.teardowns[unit.id, default: []].insert(name)
      if let innermost = activeClosures.last { facts.closures[innermost.closure].teardownCalls.insert(name) }
    }
    facts.calls.append(flow)
    callByNode[call.id] = facts.calls.count - 1
    return facts.calls.count - 1
  }

  /// Records that `property` of self is emptied here (never counts in `deinit`,
  /// nor in an initializer, where it is only being set up).
  func drained(_ property: String) {
    guard unit.kind != .deinitializer, unit.kind != .initializer, let typeName = unit.typeName else { return }
    facts.drainedProperties.insert(typeName + "." + property)
    facts.teardowns[unit.id, default: []].insert("nil:" + property)
  }

  private func tagClosures(in arguments: [[Carried]], _ tag: ClosureInfo.Tag) {
    for case .closure(let closure) in arguments.joined() where facts.closures[closure].kind == .literal {
      facts.closures[closure].tag = tag
    }
  }

  /// The property of self a call's result is assigned to (`observer = center.addObserver(…)`).
  private func storedProperty(of call: FunctionCallExprSyntax) -> String? {
    guard let sequence = call.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self) else {
      return nil
    }
    let elements = Array(sequence.elements)
    guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
    return pathInfo(elements[0])?.property
  }
}
