import LeakClock
import LeakDetector
import ScreenKit

/// Runs a scenario headless on a manual clock and reports what the detector saw.
///
/// The run: open the screen (push), run the scenario's ``Scenario/script``
/// (by default, tap every action once), close it (pop), wait the grace delay,
/// then keep the clock moving for ``observation`` so temporary leaks can
/// resolve. No sleeping: ten seconds of scenario take microseconds.
///
/// ```swift
/// let result = await ScenarioRunner.run(Catalogue.delayedDispatch, mode: .strong)
/// result.detected  // .temporary(["SyncScreen"], resolvedAfter: .seconds(10))
/// result.match     // true
/// ```
///
/// Work that runs on the main actor outside the clock (a `Task` reading an
/// async stream) gets its turn through ``settle(_:)``: after every step the
/// runner yields the main actor a bounded number of times.
@MainActor
public enum ScenarioRunner {
  /// How long the clock runs after the close: past any temporary leak in the catalogue.
  public static let observation: Duration = .seconds(60)
  /// How many times ``settle(_:)`` yields the main actor.
  public static let settleYields = 20

  /// Runs `scenario` in `mode` and compares the detector's verdict with the declared one.
  public static func run(_ scenario: Scenario, mode: ScenarioMode) async -> ScenarioCheckResult {
    let scheduler = ManualScheduler()
    let harness = ScenarioHarness(scheduler: scheduler)
    var labelAfterGrace = ""
    let missingSteps = await drive(scenario, mode: mode, on: harness, scheduler: scheduler, until: .end) {
      labelAfterGrace = harness.detector.summaryLabel
    }
    return ScenarioCheckResult(
      scenario: scenario, mode: mode, detected: verdict(from: harness.detector.report),
      labelAfterGrace: labelAfterGrace, missingSteps: missingSteps)
  }

  /// Where a run stops.
  public enum Moment: String, Sendable, CaseIterable {
    /// One grace delay after the close, when the detector first judges.
    case grace
    /// After the ``observation`` time: temporary leaks have resolved.
    case end
  }

  /// Opens `scenario` in `mode` on `harness`, runs its script, closes it, waits
  /// the grace delay (then calls `afterGrace`) and, for `.end`, the rest of the
  /// observation time. `scheduler` must be the harness's.
  ///
  /// - Returns: the script steps whose button or alert action was not there.
  @discardableResult
  public static func drive(
    _ scenario: Scenario, mode: ScenarioMode, on harness: ScenarioHarness, scheduler: ManualScheduler,
    until moment: Moment, afterGrace: () -> Void = {}
  ) async -> [ScenarioStep] {
    harness.open(scenario, mode: mode)
    await settle(scheduler)
    var missingSteps: [ScenarioStep] = []
    for step in scenario.script {
      if !harness.perform(step) { missingSteps.append(step) }
      await settle(scheduler)
    }
    harness.close()
    await settle(scheduler)
    let grace = harness.detector.configuration.graceDelay
    scheduler.advance(by: grace)
    afterGrace()
    guard moment == .end else { return missingSteps }
    var elapsed = grace
    while elapsed < observation {
      scheduler.advance(by: .seconds(1))
      await settle(scheduler)
      elapsed += .seconds(1)
    }
    return missingSteps
  }

  /// Runs work that is due on the clock and lets main-actor tasks take their turn.
  public static func settle(_ scheduler: ManualScheduler) async {
    scheduler.runDueWork()
    for _ in 0..<settleYields { await Task.yield() }
    scheduler.runDueWork()
  }

  /// ``settle(_:)``, then more turns until `condition` holds, for at most
  /// `limit` of wall-clock time (no sleep: the main actor yields). A task
  /// resumed from a continuation may wait for a thread of the cooperative
  /// pool before it is back on the main actor: under a sanitizer on a busy
  /// machine that took longer than ``settleYields`` turns (a polling task's
  /// request came a second late, 1 `make test` in several).
  public static func settle(
    _ scheduler: ManualScheduler, until condition: () -> Bool, limit: Duration = .seconds(10)
  ) async {
    await settle(scheduler)
    let deadline = ContinuousClock.now + limit
    while !condition(), ContinuousClock.now < deadline {
      await Task.yield()
      scheduler.runDueWork()
    }
  }

  /// The verdict a detector report amounts to: open leaks are permanent; if
  /// every reported leak resolved, it was temporary (resolved after the
  /// latest resolution, measured from the close).
  public static func verdict(from report: LeakReport) -> Verdict {
    let reported = report.leaks
    guard !reported.isEmpty else { return .clean }
    let open = report.openLeaks
    if !open.isEmpty { return .leaks(open.map(\.typeName).sorted()) }
    let latest = reported.compactMap { leak -> Duration? in
      if case .resolved(let after) = leak.status { after } else { nil }
    }.max()
    return .temporary(reported.map(\.typeName).sorted(), resolvedAfter: latest ?? .zero)
  }
}

/// The outcome of one scenario run in one mode: a row of `leaklab check`.
public struct ScenarioCheckResult: Sendable, Equatable {
  /// The scenario's id.
  public var scenarioID: String
  /// The scenario's title.
  public var title: String
  /// The mode it ran in.
  public var mode: ScenarioMode
  /// What the scenario declares.
  public var expected: Verdict
  /// What the detector found.
  public var detected: Verdict
  /// The summary label right after the grace delay.
  public var labelAfterGrace: String
  /// Script steps whose button or alert action was not found.
  public var missingSteps: [ScenarioStep]

  /// Creates a result for `scenario`; `expected` is the scenario's declaration for `mode`.
  public init(
    scenario: Scenario, mode: ScenarioMode, detected: Verdict, labelAfterGrace: String,
    missingSteps: [ScenarioStep] = []
  ) {
    self.scenarioID = scenario.id
    self.title = scenario.title
    self.mode = mode
    self.expected = scenario.expectedVerdict(for: mode)
    self.detected = detected
    self.labelAfterGrace = labelAfterGrace
    self.missingSteps = missingSteps
  }

  /// Whether the detector found exactly what the scenario declares, and every step ran.
  public var match: Bool { expected == detected && missingSteps.isEmpty }
}

extension ScenarioCheckResult: Encodable {
  private enum CodingKeys: String, CodingKey {
    case scenario, title, mode, expected, detected, leaked, resolvedAfterSeconds, match
    case expectedLeaked, expectedResolvedAfterSeconds, labelAfterGrace
  }

  /// Encodes the `leaklab check --json` schema (see `Scenarios/README.md`).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(scenarioID, forKey: .scenario)
    try container.encode(title, forKey: .title)
    try container.encode(mode, forKey: .mode)
    try container.encode(expected.kind, forKey: .expected)
    try container.encode(detected.kind, forKey: .detected)
    try container.encode(detected.leakedTypeNames, forKey: .leaked)
    try container.encode(detected.resolvedAfter?.seconds, forKey: .resolvedAfterSeconds)
    try container.encode(match, forKey: .match)
    try container.encode(expected.leakedTypeNames, forKey: .expectedLeaked)
    try container.encode(expected.resolvedAfter?.seconds, forKey: .expectedResolvedAfterSeconds)
    try container.encode(labelAfterGrace, forKey: .labelAfterGrace)
  }
}

/// Runs the whole catalogue in both modes: what `leaklab check` prints.
@MainActor
public enum CatalogueCheck {
  /// One result per scenario and mode, in catalogue order, strong before weak.
  public static func run(
    _ scenarios: [Scenario] = Catalogue.all, modes: [ScenarioMode] = ScenarioMode.allCases
  ) async -> [ScenarioCheckResult] {
    var results: [ScenarioCheckResult] = []
    for scenario in scenarios {
      for mode in modes {
        results.append(await ScenarioRunner.run(scenario, mode: mode))
      }
    }
    return results
  }
}
