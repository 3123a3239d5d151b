/// Closures and objects kept by a root until a teardown call:
/// `notification-observer`, `repeating-timer`, `dispatch-source`,
/// `urlsession-delegate`, and `delayed-dispatch` (kept only until it runs).
///
/// A teardown counts only in a function other than `deinit` (which never runs
/// while the root keeps self) and other than the one that set things up (an
/// `invalidate()` before rescheduling does not end the last timer).
enum RootHeldRules {
  /// The findings, and the closures these rules speak for (the closure rules skip them).
  static func findings(_ context: inout RuleContext) -> (findings: [LintFinding], claimed: Set<Int>) {
    var findings: [LintFinding] = []
    var claimed: Set<Int> = []
    for use in context.facts.apiUses {
      let closures = context.closures(in: use.carried)
      claimed.formUnion(closures)
      let typeName = context.index.units[use.unit].typeName
      let torn =
        use.kind == .delayed
        ? false
        : context.hasTeardown(KnownAPI.teardownNames(for: use.kind), typeName: typeName, excluding: use.unit)
      let capturing = closures.filter { context.facts.closures[$0].strongCaptures.contains(.selfObject) }
      switch use.kind {
      case .delayed:
        for closure in capturing {
          findings.append(
            context.finding(
              .delayedDispatch, at: context.facts.closures[closure].position,
              "temporary leak: `\(use.name)` keeps this block, and the self it captures strongly, until it runs."
            ))
        }
      case .timer:
        guard !torn else { continue }
        if use.target == .selfObject {
          findings.append(
            context.finding(
              .repeatingTimer, at: use.position,
              "the run loop keeps this repeating timer and the timer keeps its target, self; nothing invalidates it outside deinit."
            ))
        }
        for closure in capturing
        where context.facts.closures[closure].teardownCalls.isDisjoint(with: ["invalidate", "cancel"]) {
          findings.append(
            context.finding(
              .repeatingTimer, at: context.facts.closures[closure].position,
              "the run loop keeps this repeating timer (`\(use.name)`), its block captures self strongly, and nothing invalidates it outside deinit."
            ))
        }
      case .observer:
        guard !torn else { continue }
        for closure in capturing {
          findings.append(
            context.finding(
              .notificationObserver, at: context.facts.closures[closure].position,
              "the notification center keeps this observer block until removeObserver, the block captures self strongly, and nothing removes it outside deinit."
            ))
        }
      case .dispatchSource:
        guard !torn else { continue }
        for closure in capturing {
          findings.append(
            context.finding(
              .dispatchSource, at: context.facts.closures[closure].position,
              "the dispatch source keeps this handler until it is cancelled, the handler captures self strongly, and nothing cancels the source outside deinit."
            ))
        }
      case .urlSession:
        guard !torn, use.target == .selfObject else { continue }
        findings.append(
          context.finding(
            .urlSessionDelegate, at: use.position,
            "this URLSession keeps self, its delegate, strongly until it is invalidated, and nothing invalidates it."
          ))
      }
    }
    return (findings, claimed)
  }
}
