/// Closures and objects kept by a root until a teardown call:
/// `notification-observer`, `repeating-timer`, `dispatch-source`,
/// `urlsession-delegate`, `delayed-dispatch` (kept only until it runs), and
/// `unowned-capture` (an `unowned self` in a block a root runs later).
///
/// A teardown counts only when it ends what was set up: the token, timer,
/// source or session kept where the call put it (`removeObserver(self)` does
/// not remove a block observer), in a function other than `deinit` (which
/// never runs while the root keeps self) and other than the one that set
/// things up (an `invalidate()` before rescheduling does not end the new
/// timer). Self that lives as long as the process (a singleton, the app
/// delegate) is never reported: what keeps it for good is no leak.
enum RootHeldRules {
  /// The findings, and the closures these rules speak for (the closure rules skip them).
  static func findings(_ context: inout RuleContext) -> (findings: [LintFinding], claimed: Set<Int>) {
    var findings: [LintFinding] = []
    var claimed: Set<Int> = []
    for use in context.facts.apiUses {
      let closures = context.closures(in: use.carried)
      claimed.formUnion(closures)
      let typeName = context.index.units[use.unit].typeName
      guard !context.livesForever(typeName) else { continue }
      let torn = isTornDown(use, context: context)
      // Self, or (in a SwiftUI view) an object one of its properties holds: `model`.
      let capturing = closures.compactMap { closure -> (Int, Root)? in
        let captures = context.facts.closures[closure].strongCaptures
        if captures.contains(.selfObject) { return (closure, .selfObject) }
        let member = captures.filter {
          if case .local(let id) = $0 { context.facts.memberObjects.contains(id) } else { false }
        }
        return member.min(by: { context.objectName($0) < context.objectName($1) }).map { (closure, $0) }
      }
      let unowned = closures.filter { context.facts.closures[$0].unownedCaptures.contains(.selfObject) }
      if use.kind == .delayed || !torn {
        for closure in unowned {
          findings.append(
            context.finding(
              .unownedCapture, at: context.facts.closures[closure].position,
              "\(keeper(use)) runs this block later, and `unowned self` traps if self has gone by then."))
        }
      }
      switch use.kind {
      case .delayed:
        // Only self: a view's model held for a delay is no screen outliving itself.
        for (closure, root) in capturing where root == .selfObject {
          findings.append(
            context.finding(
              .delayedDispatch, at: context.facts.closures[closure].position,
              "temporary leak: `\(use.name)` keeps this block, and the \(describe(root, context)) it captures strongly, until it runs."
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
        for (closure, root) in capturing
        where context.facts.closures[closure].teardownCalls.isDisjoint(with: ["invalidate", "cancel"]) {
          findings.append(
            context.finding(
              .repeatingTimer, at: context.facts.closures[closure].position,
              "the run loop keeps this repeating timer (`\(use.name)`), its block captures \(context.objectName(root)) strongly, and nothing invalidates it\(root == .selfObject ? " outside deinit" : "")."
            ))
        }
      case .observer:
        guard !torn else { continue }
        for (closure, root) in capturing {
          findings.append(
            context.finding(
              .notificationObserver, at: context.facts.closures[closure].position,
              "the notification center keeps this observer block until its token is removed, the block captures \(context.objectName(root)) strongly, and nothing removes it\(root == .selfObject ? " outside deinit" : "")."
            ))
        }
      case .dispatchSource:
        guard !torn else { continue }
        for (closure, root) in capturing {
          findings.append(
            context.finding(
              .dispatchSource, at: context.facts.closures[closure].position,
              "the dispatch source keeps this handler until it is cancelled, the handler captures \(context.objectName(root)) strongly, and nothing cancels the source outside deinit."
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

  /// Who runs the block later, for messages.
  static func keeper(_ use: APIUse) -> String {
    switch use.kind {
    case .delayed: "the queue (`\(use.name)`)"
    case .timer: "the run loop's repeating timer (`\(use.name)`)"
    case .observer: "the notification center"
    case .dispatchSource: "the dispatch source"
    case .urlSession: "the session"
    }
  }

  private static func describe(_ root: Root, _ context: RuleContext) -> String {
    root == .selfObject ? "self" : "object \(context.objectName(root))"
  }

  /// Whether what the root keeps is ended somewhere that counts: where the result was kept (a
  /// property, a local), its teardown; a token or timer dropped where it was made can never be
  /// ended; kept somewhere the lint cannot name, any teardown of the kind in the type.
  static func isTornDown(_ use: APIUse, context: RuleContext) -> Bool {
    let names = KnownAPI.teardownNames(for: use.kind)
    guard use.kind != .delayed else { return false }
    if let key = use.storageKey {
      return context.isTornDown(key, by: Array(names), setupUnit: use.unit)
    }
    if use.isDiscarded && use.kind != .dispatchSource { return false }
    return context.hasTeardown(names, typeName: context.index.units[use.unit].typeName, excluding: use.unit)
  }
}
