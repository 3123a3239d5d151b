/// Closures kept by what they capture: `stored-closure`, `method-reference`,
/// `lazy-closure`, `captured-owner`, `combine-sink` and `task-loop`.
///
/// A closure is reported only when a place that keeps it (a sink) belongs to
/// an object the closure captures strongly: self (or something self owns) for
/// the self rules, a local object for `captured-owner`. A closure that is only
/// called, or kept by something self does not own, is never reported.
enum ClosureCycleRule {
  static func findings(_ context: inout RuleContext, claimed: Set<Int>) -> [LintFinding] {
    let owners = context.resolution.localOwners()
    var reported: Set<Int> = []
    var findings: [LintFinding] = []
    for sink in context.resolution.sinks {
      guard let owner = sink.owner else { continue }
      let ownerSet: Set<Root>
      switch owner {
      case .selfObject: ownerSet = [.selfObject]
      case .local(let id): ownerSet = owners[id] ?? [.local(id)]
      }
      for closureIndex in context.closures(in: sink.carried)
      where !claimed.contains(closureIndex) && !reported.contains(closureIndex) {
        let closure = context.facts.closures[closureIndex]
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

  private static func finding(context: inout RuleContext, closure: ClosureInfo, sink: Sink, cycle: Set<Root>)
    -> LintFinding?
  {
    let keeper = sink.path.description == "self" ? "self" : "`\(sink.path)`"
    let via = sink.via.map { " (\($0) keeps it)" } ?? ""
    switch closure.tag {
    case .task:
      guard closure.hasEndlessLoop,
        !context.hasTeardown(["cancel"], typeName: closure.typeName, excluding: closure.unit)
      else { return nil }
      return context.finding(
        .taskLoop, at: closure.position,
        "self keeps this task in \(keeper), its loop never ends, and it captures self strongly; nothing cancels it outside deinit."
      )
    case .combine:
      guard
        !context.hasTeardown(["cancel", "removeAll"], typeName: closure.typeName, excluding: closure.unit)
      else { return nil }
      return context.finding(
        .combineSink, at: closure.position,
        "self keeps this subscription in \(keeper), and \(context.name(of: closure)) captures self strongly: a cycle."
      )
    case .none: break
    }
    if let property = sink.property,
      context.hasTeardown(["nil:" + property], typeName: closure.typeName, excluding: closure.unit)
    {
      return nil
    }
    guard cycle.contains(.selfObject) else {
      let names = cycle.compactMap { root -> String? in
        if case .local(let id) = root { context.facts.localNames[id].map { "`\($0)`" } } else { nil }
      }.sorted()
      let name = names.first ?? "its owner"
      return context.finding(
        .capturedOwner, at: closure.position,
        "\(name) keeps this closure (in \(keeper)\(via)) and the closure captures \(name) strongly: a cycle.")
    }
    let rebound = closure.capturesReboundSelf ? " (the strong self of `guard let self`)" : ""
    if sink.isLazy {
      return context.finding(
        .lazyClosure, at: closure.position,
        "self keeps \(context.name(of: closure)) in `lazy var \(sink.path)`, and it captures self strongly: a cycle from its first use on."
      )
    }
    switch closure.kind {
    case .methodReference(let name):
      return context.finding(
        .methodReference, at: closure.position,
        "`\(name)` passed as a closure captures self strongly, and self keeps it in \(keeper)\(via): a cycle.",
        fix:
          "Pass a closure that captures weakly: `{ [weak self] in self?.\(name)(\(context.arguments(of: name, in: closure.typeName))) }`."
      )
    default:
      return context.finding(
        .storedClosure, at: closure.position,
        "self keeps this closure in \(keeper)\(via), and it captures self strongly\(rebound): a cycle.")
    }
  }
}
