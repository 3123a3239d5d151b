/// `unowned-capture` one call away: a closure capturing `[unowned self]` handed to
/// a function of the linted code that passes it on to something that runs it
/// later (`downloader.download(name) { [unowned self] image in … }`, where
/// `download` calls its completion from a block it gives `asyncAfter`), or given
/// to a URL session request, which runs its completion handler when the response
/// arrives (a cancelled task still calls it).
///
/// A function *defers* a parameter when something that outlives the call runs
/// it later: a delayed block, a repeating timer, observer or dispatch source
/// never ended, an endless task, or a request's completion handler is that
/// parameter or captures it; or when the function passes the parameter (or a
/// closure capturing it) to a parameter another function defers. A function
/// that only calls its closure, or keeps it in storage that self owns, defers
/// nothing: `[unowned self]` is right there. An `unowned self` block given to
/// the root itself is ``RootHeldRules``' and ``TaskRules``' to report.
enum DeferredClosureRule {
  /// Something that runs what it carries later, and how messages name it.
  private struct LaterRun {
    var carried: [Carried]
    var keeper: String
  }

  static func findings(_ context: inout RuleContext) -> [LintFinding] {
    var findings: [LintFinding] = []
    var runs: [LaterRun] = []
    // Blocks the roots keep themselves: reported (or not) by the rules of those roots.
    var rootBlocks: Set<Int> = []
    for use in context.facts.apiUses {
      rootBlocks.formUnion(context.closures(in: use.carried))
      if use.kind == .delayed || !RootHeldRules.isTornDown(use, context: context) {
        runs.append(LaterRun(carried: use.carried, keeper: RootHeldRules.keeper(use)))
      }
    }
    for task in context.facts.tasks {
      rootBlocks.insert(task.closure)
      guard context.facts.closures[task.closure].hasEndlessLoop, !TaskRules.isCancelled(task, context) else {
        continue
      }
      runs.append(LaterRun(carried: [.closure(task.closure)], keeper: "an endless task"))
    }
    for (position, call) in context.facts.calls.enumerated()
    where KnownAPI.requestCalls.contains(call.name) && !context.resolution.reachesLintedFunction(position) {
      let keeper = "the URL session (`\(call.name)`)"
      let carried = call.arguments.flatMap { $0 }
      runs.append(LaterRun(carried: carried, keeper: keeper))
      for closure in context.closures(in: carried) where isUnownedSelf(closure, context) {
        rootBlocks.insert(closure)
        findings.append(
          context.finding(
            .unownedCapture, at: context.facts.closures[closure].position,
            "\(keeper) runs this completion handler when the response arrives, even after a cancel, and `unowned self` traps if self has gone by then."
          ))
      }
    }
    // The arguments handed to functions of the linted code: the only ones a linted function can defer.
    var handed: [(call: Int, argument: Int)] = []
    for (position, call) in context.facts.calls.enumerated()
    where context.resolution.reachesLintedFunction(position) {
      for (argument, items) in call.arguments.enumerated() where !items.isEmpty {
        handed.append((position, argument))
      }
    }
    let deferred = deferredParameters(runs, handed: handed, context: context)
    guard !deferred.isEmpty else { return findings }
    var reported = rootBlocks
    for (position, argument) in handed {
      guard let keeper = keeper(of: position, argument: argument, deferred: deferred, context: context)
      else { continue }
      for closure in context.closures(in: context.facts.calls[position].arguments[argument])
      where isUnownedSelf(closure, context) && reported.insert(closure).inserted {
        findings.append(
          context.finding(
            .unownedCapture, at: context.facts.closures[closure].position,
            "`\(context.resolution.describe(position))` hands this closure on to \(keeper), which runs it later, and `unowned self` traps if self has gone by then."
          ))
      }
    }
    return findings
  }

  /// A closure literal capturing `[unowned self]`, of an object that does not live for good.
  private static func isUnownedSelf(_ closure: Int, _ context: RuleContext) -> Bool {
    let info = context.facts.closures[closure]
    return info.kind == .literal && info.unownedCaptures.contains(.selfObject)
      && !context.livesForever(info.typeName)
  }

  /// The parameters the linted functions defer, each with what runs it in the end: those the
  /// runs carry or capture, then those passed on to such a parameter, to a fixpoint.
  private static func deferredParameters(
    _ runs: [LaterRun], handed: [(call: Int, argument: Int)], context: RuleContext
  ) -> [ParameterSlot: String] {
    var deferred: [ParameterSlot: String] = [:]
    for run in runs {
      for slot in parameters(in: run.carried, context: context) where deferred[slot] == nil {
        deferred[slot] = run.keeper
      }
    }
    guard !deferred.isEmpty else { return deferred }
    for _ in 0..<8 {
      var changed = false
      for (call, argument) in handed {
        guard let keeper = keeper(of: call, argument: argument, deferred: deferred, context: context)
        else { continue }
        for slot in parameters(in: context.facts.calls[call].arguments[argument], context: context)
        where deferred[slot] == nil {
          deferred[slot] = keeper
          changed = true
        }
      }
      if !changed { break }
    }
    return deferred
  }

  /// What runs an argument later, when every function the call can reach defers its parameter.
  private static func keeper(
    of call: Int, argument: Int, deferred: [ParameterSlot: String], context: RuleContext
  ) -> String? {
    let targets = context.resolution.targetParameters(of: call, argument: argument)
    guard let first = targets.first,
      targets.allSatisfy({ deferred[ParameterSlot(function: $0.function, index: $0.parameter)] != nil })
    else { return nil }
    return deferred[ParameterSlot(function: first.function, index: first.parameter)]
  }

  /// The parameters `items` are, or that the closures among them capture (`{ completion(image) }`).
  private static func parameters(in items: [Carried], context: RuleContext) -> [ParameterSlot] {
    var result: [ParameterSlot] = []
    for item in context.resolution.expand(items) {
      switch item {
      case .parameter(let function, let index):
        result.append(ParameterSlot(function: function, index: index))
      case .closure(let closure):
        for case .local(let id) in context.facts.closures[closure].strongCaptures.sorted(by: order) {
          if let slot = context.facts.parameterSlots[id] { result.append(slot) }
        }
      default: break
      }
    }
    return result
  }

  /// Roots in a fixed order, so what is recorded first does not depend on hashing.
  private static func order(_ lhs: Root, _ rhs: Root) -> Bool {
    switch (lhs, rhs) {
    case (.local(let left), .local(let right)): left < right
    case (.selfObject, .local): true
    default: false
    }
  }
}
