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
    var newTasks: [Int] = []
    var newUses: [Int] = []
    if let receiver {
      // Where the receiver keeps things matters only for a call that may keep an argument or end
      // what a receiver keeps; most calls pass nothing the analysis tracks.
      if arguments.contains(where: { !$0.isEmpty }) || KnownAPI.teardownCalls.contains(name)
        || KnownAPI.drainingCalls.contains(name)
      {
        flow.receiverKey = storageKey(receiver)
        flow.receiverIsStatic = isStaticPath(receiver) || isStaticType(receiver)
      }
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
      if tag == .task {
        for case .closure(let closure) in arguments.joined() where facts.closures[closure].kind == .literal {
          facts.tasks.append(
            TaskUse(
              closure: closure, call: -1, unit: unit.id, storageKey: resultStorageKey(of: call),
              isDiscarded: isDiscarded(call)))
          newTasks.append(facts.tasks.count - 1)
        }
      }
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
      // `subscribe(onSuccess:)`: RxSwift's Single and Maybe finish after one value.
      let singleLabels = allLabelsOneShot(labels + trailingLabels)
      markChain(receiver, closures: arguments, oneShot: singleLabels)
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
        markChain(receiver, closures: flow.arguments, oneShot: false)
      }
    case .storeIn:
      if let target = call.arguments.first?.expression, let receiver {
        let path = pathInfo(target)
        var sink = Sink(
          owner: path?.root, carried: carried(receiver), position: position(call),
          path: PathText(target),
          unit: unit.id, property: path?.root == .selfObject ? path?.property : nil,
          via: "\(name)(\(labels.compactMap { $0 }.joined()):)")
        sink.storageKey = storageKey(target)
        facts.sinks.append(sink)
      }
    case .root(let kind):
      var use = APIUse(
        kind: kind, call: -1, carried: arguments.flatMap { $0 }, position: position(call), unit: unit.id,
        name: name)
      for argument in call.arguments where ["target", "delegate"].contains(argument.label?.text) {
        if let binding = aliasSource(of: argument.expression), binding.isStrong {
          use.target = binding.root
          use.position = position(argument)
        }
      }
      if kind == .dispatchSource {
        use.storageKey = receiver.flatMap { storageKey($0) }
      } else {
        use.storageKey = resultStorageKey(of: call)
        use.isDiscarded = isDiscarded(call)
      }
      facts.apiUses.append(use)
      newUses.append(facts.apiUses.count - 1)
    default: break
    }

    facts.calledNames.insert(name)
    if KnownAPI.teardownCalls.contains(name) {
      // `removeObserver(self)` removes selector observers only, never a block's token.
      let removesSelf =
        name == "removeObserver"
        && call.arguments.first.map { aliasSource(of: $0.expression)?.root == .selfObject } != false
      if !removesSelf { facts.teardowns[unit.id, default: []].insert(name) }
      if let innermost = activeClosures.last { facts.closures[innermost.closure].teardownCalls.insert(name) }
      // What it tears down: `timer?.invalidate()` the timer, `removeObserver(token)` the token.
      var target: String?
      if name == "removeObserver", let first = call.arguments.first?.expression {
        target = aliasSource(of: first)?.root == .selfObject ? "self" : storageKey(first) ?? "other"
      } else if let receiver {
        target = storageKey(receiver)
      }
      if let target { recordTeardown(name, of: target) }
    }
    if KnownAPI.drainingCalls.contains(name), let key = flow.receiverKey { recordTeardown("drain", of: key) }
    if KnownAPI.receiverKeeps.contains(name), let key = flow.receiverKey, let first = call.arguments.first {
      alias(first.expression, as: key)
    }
    let typeReceiver = isInitializer ? nil : typeReceiver(of: receiver, name: name)
    if let receiver {
      recordCollectionCall(name: name, receiver: receiver, arguments: arguments, at: flow.position)
    }
    facts.calls.append(flow)
    let index = facts.calls.count - 1
    callByNode[call.id] = index
    if let typeReceiver { facts.typeReceivers[index] = typeReceiver }
    for task in newTasks { facts.tasks[task].call = index }
    for use in newUses { facts.apiUses[use].call = index }
    return index
  }

  /// Records that this unit tears down (or empties) the storage `key`. Set-up in an initializer is not a teardown.
  func recordTeardown(_ name: String, of key: String) {
    for active in activeClosures { facts.closures[active.closure].endedStorage.insert(name + "@" + key) }
    guard unit.kind != .initializer else { return }
    facts.targetedTeardowns[name + "@" + key, default: []].append(unit.id)
  }

  /// `subscribe(onSuccess:)`, `subscribe(onFailure:)`: RxSwift's one-value traits.
  private func allLabelsOneShot(_ labels: [String?]) -> Bool {
    labels.contains { $0 == "onSuccess" || $0 == "onFailure" }
  }

  /// Marks a subscription's closures with what its chain says: one-shot (a request, `Future`,
  /// `first()`), and the head call to decide later (a linted function returning a request's publisher).
  private func markChain(_ receiver: ExprSyntax?, closures: [[Carried]], oneShot: Bool) {
    let names = receiver.map { PublisherChain.callNames($0) } ?? []
    let head = names.last
    let isOneShot =
      oneShot || head.map(PublisherChain.oneShotHeads.contains) == true
      || names.dropLast().contains(where: PublisherChain.oneShotOperators.contains)
    for case .closure(let closure) in closures.joined() {
      facts.closures[closure].isOneShot = facts.closures[closure].isOneShot || isOneShot
      facts.closures[closure].chainHead = head
    }
  }

  /// Whether a call's result is dropped where it is made (a statement of its own, or `_ = …`).
  func isDiscarded(_ call: FunctionCallExprSyntax) -> Bool {
    var node = Syntax(call)
    while let parent = node.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
      node = parent
    }
    if node.parent?.is(CodeBlockItemSyntax.self) == true { return true }
    if let list = node.parent?.as(ExprListSyntax.self),
      let sequence = list.parent?.as(SequenceExprSyntax.self)
    {
      let elements = Array(sequence.elements)
      return elements.count == 3 && elements[0].is(DiscardAssignmentExprSyntax.self)
        && elements[1].is(AssignmentExprSyntax.self)
    }
    return false
  }

  /// Where a call's result is kept: the storage it is assigned to (`timer = Timer…`), or the
  /// collection it is appended to (`observers.append(center.addObserver…)`).
  private func resultStorageKey(of call: FunctionCallExprSyntax) -> String? {
    if let sequence = call.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self) {
      let elements = Array(sequence.elements)
      if elements.count == 3, elements[1].is(AssignmentExprSyntax.self) { return storageKey(elements[0]) }
    }
    if let argument = call.parent?.as(LabeledExprSyntax.self),
      let outer = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
      let member = outer.calledExpression.as(MemberAccessExprSyntax.self),
      KnownAPI.receiverKeeps.contains(member.declName.baseName.text), let base = member.base
    {
      return storageKey(base)
    }
    return nil
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

}
