/// Closures kept by what they capture: `stored-closure`, `method-reference`,
/// `lazy-closure`, `captured-owner` and `combine-sink`; and closures static
/// storage keeps for good.
///
/// A closure is reported only when a place that keeps it (a sink) belongs to
/// an object the closure captures strongly: self (or something self owns) for
/// the self rules, a local object (or the copy of a property a capture list
/// takes: `[imageView]`) for `captured-owner`. A closure that is only called,
/// or kept by something self does not own, is never reported; nor is a
/// subscription to a publisher that finishes after one value (a request,
/// `Future`, `Just`), a store emptied in another function (of any type), or a
/// cycle through an object that lives as long as the process.
enum ClosureCycleRule {
  static func findings(_ context: inout RuleContext, claimed: Set<Int>) -> [LintFinding] {
    let owners = context.resolution.localOwners()
    let taskClosures = Set(context.facts.tasks.map(\.closure))
    var reported: Set<Int> = []
    var findings: [LintFinding] = []
    for sink in context.resolution.sinks {
      guard let ownerSet = ownerSet(of: sink, owners: owners, context: context) else { continue }
      for closureIndex in context.closures(in: sink.carried)
      where !claimed.contains(closureIndex) && !reported.contains(closureIndex)
        && !taskClosures.contains(closureIndex)
      {
        let closure = context.facts.closures[closureIndex]
        if closure.tag == .task { continue }
        if context.livesForever(closure.typeName) && closure.strongCaptures.contains(.selfObject) { continue }
        if sink.owner == nil {
          guard sink.isStatic, let finding = staticFinding(context: &context, closure: closure, sink: sink)
          else {
            continue
          }
          reported.insert(closureIndex)
          findings.append(finding)
          continue
        }
        let cycle = closure.strongCaptures.intersection(ownerSet)
        guard !cycle.isEmpty else { continue }
        guard let finding = finding(context: &context, closure: closure, sink: sink, cycle: cycle) else {
          continue
        }
        reported.insert(closureIndex)
        findings.append(finding)
      }
    }
    return findings
  }

  /// The objects that keep what `sink` keeps: self; a local and those that keep it; and the
  /// copies of self's property a capture list took, when the sink is that property's storage.
  private static func ownerSet(of sink: Sink, owners: [Int: Set<Root>], context: RuleContext) -> Set<Root>? {
    switch sink.owner {
    case nil: return sink.isStatic ? [] : nil
    case .local(let id): return owners[id] ?? [.local(id)]
    case .selfObject:
      var result: Set<Root> = [.selfObject]
      if let property = sink.property, sink.storageKey?.hasSuffix("." + property) == false {
        for (copy, copied) in context.facts.propertyCopies where copied == property {
          result.insert(.local(copy))
        }
      }
      return result
    }
  }

  /// A closure static storage keeps (`EventBus.shared.subscribe { self… }`): what it captures lives for good.
  private static func staticFinding(context: inout RuleContext, closure: ClosureInfo, sink: Sink)
    -> LintFinding?
  {
    let keeper = "`\(sink.path)`"
    if closure.unownedCaptures.contains(.selfObject) {
      return context.finding(
        .unownedCapture, at: closure.position,
        "\(keeper) is static storage that outlives self and keeps this closure, and `unowned self` traps once self has gone."
      )
    }
    guard closure.strongCaptures.contains(.selfObject), closure.tag != .combine || !context.isOneShot(closure)
    else {
      return nil
    }
    let via = sink.via.map { " (\($0) keeps it)" } ?? ""
    return context.finding(
      .storedClosure, at: closure.position,
      "\(keeper)\(via) is static storage that keeps this closure for good, and it captures self strongly: self never goes."
    )
  }

  /// Whether what keeps the closure lets it go somewhere that counts: its storage is emptied
  /// (`handlers.removeAll()`, in any type: a cell empties its bag in `prepareForReuse`), its holder
  /// is cancelled (`connection.cancel()` releases the connection's handlers), or the storage a
  /// function keeps its argument in is (`presenter.request = nil`).
  private static func isTornDown(_ sink: Sink, closure: ClosureInfo, context: RuleContext) -> Bool {
    // A handler that clears its own storage when done (`handle.readabilityHandler = nil` at the end).
    if let key = sink.storageKey, closure.endedStorage.contains("drain@" + key) { return true }
    if let key = sink.storageKey,
      context.isTornDown(key, by: ["drain", "cancel", "removeTimeObserver"], setupUnit: closure.unit)
    {
      return true
    }
    if let key = sink.holderKey, context.isTornDown(key, by: holderTeardowns, setupUnit: closure.unit) {
      return true
    }
    // A holder the function was given: cancelled wherever its type cancels its objects.
    if case .local(let id) = sink.owner, context.facts.parameterRoots.contains(id),
      context.hasTeardown(Set(holderTeardowns), typeName: closure.typeName, excluding: closure.unit)
    {
      return true
    }
    if let (call, argument) = sink.derivedFrom {
      let targets = context.resolution.targetParameters(of: call, argument: argument)
      return !targets.isEmpty
        && targets.allSatisfy { target in
          let keys = context.resolution.parameterStorage(
            function: target.function, parameter: target.parameter)
          return !keys.isEmpty
            && keys.allSatisfy { context.isTornDown($0, by: ["drain", "cancel"], setupUnit: -1) }
        }
    }
    return false
  }

  /// Calls after which an object lets go of the closures it keeps.
  private static let holderTeardowns = [
    "cancel", "invalidate", "invalidateAndCancel", "finishTasksAndInvalidate",
  ]

  private static func finding(context: inout RuleContext, closure: ClosureInfo, sink: Sink, cycle: Set<Root>)
    -> LintFinding?
  {
    let keeper = sink.path.description == "self" ? "self" : "`\(sink.path)`"
    let via = sink.via.map { " (\($0) keeps it)" } ?? ""
    if isTornDown(sink, closure: closure, context: context) { return nil }
    let captured = cycle.sorted { context.objectName($0) < context.objectName($1) }
    let name = cycle.contains(.selfObject) ? "self" : context.objectName(captured[0])
    if closure.tag == .combine {
      guard !context.isOneShot(closure) else { return nil }
      if sink.storageKey == nil,
        context.hasTeardown(["cancel", "removeAll"], typeName: closure.typeName, excluding: closure.unit)
      {
        return nil
      }
      let holder = sink.owner == .selfObject ? "self" : name
      return context.finding(
        .combineSink, at: closure.position,
        "\(holder) keeps this subscription in \(keeper), and \(context.name(of: closure)) captures \(name) strongly: a cycle."
      )
    }
    if let property = sink.property,
      context.hasTeardown(["nil:" + property], typeName: closure.typeName, excluding: closure.unit)
    {
      return nil
    }
    guard cycle.contains(.selfObject) else {
      return context.finding(
        .capturedOwner, at: closure.position,
        "\(name) keeps this closure (\(sink.via.map { "`\(sink.path)`: \($0) keeps it" } ?? "in \(keeper)")) and the closure captures \(name) strongly: a cycle."
      )
    }
    let rebound = closure.capturesReboundSelf ? " (the strong self of `guard let self`)" : ""
    if sink.isLazy {
      return context.finding(
        .lazyClosure, at: closure.position,
        "self keeps \(context.name(of: closure)) in `lazy var \(sink.path)`, and it captures self strongly: a cycle from its first use on."
      )
    }
    switch closure.kind {
    case .methodReference(let method):
      return context.finding(
        .methodReference, at: closure.position,
        "`\(method)` passed as a closure captures self strongly, and self keeps it in \(keeper)\(via): a cycle.",
        fix:
          "Pass a closure that captures weakly: `{ [weak self] in self?.\(method)(\(context.arguments(of: method, in: closure.typeName))) }`."
      )
    default:
      return context.finding(
        .storedClosure, at: closure.position,
        "self keeps this closure in \(keeper)\(via), and it captures self strongly\(rebound): a cycle.")
    }
  }
}
