/// Tasks whose loop never ends: `task-loop` (it captures self strongly: self
/// lives as long as the task), `task-zombie` (it captures self weakly: self
/// goes, the task runs on) and `unowned-capture` (an `unowned self` the task
/// outlives).
///
/// A loop never ends when it is a `for await` over a stream, or a `while true`
/// (or `while !Task.isCancelled`) loop, with no `break` or `return` of its own
/// (a `guard let self else { return }` ends a weak task's loop when self goes).
/// The task is ended when what keeps its handle cancels it: a property's task
/// in a function other than `deinit` and the one that made it, a local's task
/// in its own function (`defer { heartbeat.cancel() }`). A task whose handle is
/// dropped can never be cancelled.
enum TaskRules {
  static func findings(_ context: inout RuleContext) -> [LintFinding] {
    var findings: [LintFinding] = []
    for task in context.facts.tasks {
      let closure = context.facts.closures[task.closure]
      guard closure.hasEndlessLoop, !context.livesForever(closure.typeName), !isCancelled(task, context)
      else { continue }
      let keeper = keeperText(task, context: context)
      if closure.strongCaptures.contains(.selfObject) {
        findings.append(
          context.finding(
            .taskLoop, at: closure.position,
            "\(keeper), its loop never ends, and it captures self strongly\(closure.capturesReboundSelf ? " (the strong self of `guard let self`)" : ""): self lives as long as the task, and nothing cancels it outside deinit."
          ))
      } else if closure.unownedCaptures.contains(.selfObject) {
        findings.append(
          context.finding(
            .unownedCapture, at: closure.position,
            "\(keeper) and its loop never ends: it outlives self, and `unowned self` traps once self has gone."
          ))
      } else if closure.usesSelf {
        findings.append(
          context.finding(
            .taskZombie, at: closure.position,
            "\(keeper) and its loop never ends: `[weak self]` lets self go, but the task keeps running after it, and nothing cancels it."
          ))
      }
    }
    return findings
  }

  private static func keeperText(_ task: TaskUse, context: RuleContext) -> String {
    if task.isDiscarded { return "this task's handle is dropped (nothing can cancel it)" }
    if let key = task.storageKey, !key.hasPrefix("local:"), let dot = key.lastIndex(of: ".") {
      return "this task is kept in `\(key[key.index(after: dot)...])`"
    }
    return "this task is never cancelled"
  }

  /// Whether something cancels the task: a teardown of where its handle is kept, or (kept
  /// somewhere the lint cannot name) any `cancel()` in the type outside `deinit`.
  static func isCancelled(_ task: TaskUse, _ context: RuleContext) -> Bool {
    if let key = task.storageKey {
      return context.isTornDown(key, by: ["cancel"], setupUnit: task.unit)
    }
    if task.isDiscarded { return false }
    let typeName = context.index.units[task.unit].typeName
    return context.hasTeardown(["cancel"], typeName: typeName, excluding: task.unit)
  }
}
