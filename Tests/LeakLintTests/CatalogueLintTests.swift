import LeakLint
import Scenarios
import Testing

/// The catalogue is the lint's first test: every scenario's leaky form is
/// flagged on its marked line, by the rule that names its pattern, and its
/// fixed form has no finding. Each form is linted with ScreenKit and LeakClock
/// beside it, as a user lints a whole app.
@Suite struct CatalogueLintTests {
  /// The rule that must find each scenario. A new scenario needs an entry: a
  /// rule, or a reason the lint cannot see it.
  static let expectedRules: [String: LintRule] = [
    "closure-capture": .methodReference,
    "notification-observer": .notificationObserver,
    "strong-delegate": .strongBackReference,
    "alert-action-capture": .capturedOwner,
    "delayed-dispatch": .delayedDispatch,
    "viper-module": .strongBackReference,
    "repeating-timer": .repeatingTimer,
    "nested-closure": .storedClosure,
    "lazy-closure-property": .lazyClosure,
    "task-loop": .taskLoop,
    "foundation-timer": .repeatingTimer,
    "dispatch-source-timer": .dispatchSource,
    "combine-sink": .combineSink,
    "child-coordinator": .strongBackReference,
    "task-zombie": .taskZombie,
    "unowned-capture": .unownedCapture,
    "handler-context": .strongBackReference,
    "abandoned-memory": .globalRegistration,
  ]

  @Test func everyScenarioHasAnExpectedRule() {
    #expect(Set(Catalogue.all.map(\.id)) == Set(Self.expectedRules.keys))
  }

  @Test(arguments: Catalogue.all.map(\.id))
  func theLeakyFormIsFlaggedOnItsMarkedLine(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let form = try ScenarioForm(scenario, mode: .strong)
    let findings = try form.findings().filter { $0.file == form.path }
    #expect(!findings.isEmpty, "\(id): nothing found in the leaky form")
    // A leaky form whose fix only adds a line (`self.context = nil`) has no
    // line of its own: its finding is in the scenario's code region.
    let lines = form.markedLines.isEmpty ? form.regionLines : form.markedLines
    for finding in findings {
      #expect(lines.contains(finding.line), "\(id): not on a marked line: \(finding.compilerFormat)")
      #expect(finding.rule == Self.expectedRules[id], "\(id): \(finding.compilerFormat)")
    }
  }

  @Test(arguments: Catalogue.all.map(\.id))
  func theFixedFormIsClean(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let form = try ScenarioForm(scenario, mode: .weak)
    let findings = try form.findings().filter { $0.file == form.path }
    #expect(findings.isEmpty, "\(id): \(findings.map(\.compilerFormat))")
  }
}
