import Testing

@testable import LeakLab

/// Sends `action` through ``AppReducer`` and checks the *whole* state and the effects afterwards.
///
/// `changes` states every change the action makes, as TCA's `TestStore`
/// (`send(.action) { $0.field = … }`): the state after the action must equal
/// the state before with `changes` applied, so a change the test did not
/// state fails it, and the message names each field that differs.
///
/// ```swift
/// var state = AppState(catalogue: entries)
/// expect(&state, .moveDownPressed) { $0.selectedIndex = 1 }
/// expect(&state, .openKeyPressed, effects: [.open(id: "sample-alert", mode: .strong)]) {
///   $0.openScenario = OpenScenario(id: "sample-alert", mode: .strong)
///   $0.log = [LogEntry(time: .zero, kind: .opened, text: "Alert action capture (strong)")]
/// }
/// ```
func expect(
  _ state: inout AppState, _ action: AppAction, effects expectedEffects: [AppEffect] = [],
  sourceLocation: SourceLocation = #_sourceLocation, _ changes: (inout AppState) -> Void = { _ in }
) {
  var expected = state
  changes(&expected)
  let effects = AppReducer.reduce(&state, action)
  #expect(effects == expectedEffects, "effects of \(action)", sourceLocation: sourceLocation)
  if state != expected {
    Issue.record(
      "state after \(action) differs (- expected, + actual):\n\(fieldDifference(expected, state))",
      sourceLocation: sourceLocation)
  }
}

/// The stored properties of two values that differ, one `- field: expected` / `+ field: actual` pair each.
func fieldDifference<Value>(_ expected: Value, _ actual: Value) -> String {
  let old = Mirror(reflecting: expected).children
  let new = Mirror(reflecting: actual).children
  var lines: [String] = []
  for (before, after) in zip(old, new) {
    let label = before.label ?? "?"
    let was = String(describing: before.value)
    let now = String(describing: after.value)
    if was != now { lines += ["- \(label): \(was)", "+ \(label): \(now)"] }
  }
  return lines.joined(separator: "\n")
}
