import ScreenKit

/// One entry of the catalogue: a classic leak, in its leaky and fixed form.
///
/// A scenario describes itself (id, title, pattern, why it leaks, the fix,
/// the code shown) and makes its screen for a mode. Its actions are buttons on
/// that screen, so a user (or ``Window/tapButton(titled:)``) runs them by title.
///
/// Driving a scenario, as the app does:
///
/// ```swift
/// let harness = ScenarioHarness(scheduler: scheduler)
/// harness.open(scenario, mode: .strong)  // pushes the screen
/// harness.runAction(at: 0)               // taps its first button
/// harness.close()                        // pops it: the detector starts waiting
/// scheduler.advance(by: .seconds(1))
/// print(harness.detector.summaryLabel)   // "Leaked: LoadFeedUseCase#1, FeedService#1"
/// ```
public struct Scenario: Sendable, Identifiable {
  /// A stable identifier: `closure-capture`.
  public let id: String
  /// The title shown in the catalogue list.
  public let title: String
  /// The pattern in one line.
  public let pattern: String
  /// What the user can do on the scenario's screen, in button order.
  public let actions: [ScenarioAction]
  /// Why the leaky form leaks, in two or three sentences.
  public let whyItLeaks: String
  /// The fix, in one line.
  public let fix: String
  /// The code shown to the user, cut from the scenario's source file.
  public let code: CodeExcerpt
  /// The scenario's source file, as `#fileID` spells it (`Scenarios/ClosureCapture.swift`).
  public let sourceFile: String
  /// What a headless check does between opening and closing the screen.
  public let script: [ScenarioStep]
  /// The action whose tap runs the form's marked line (from zero); `nil`
  /// when opening the screen runs it. A leaky run closed without that tap
  /// comes back clean, and the app says which button to tap.
  public let markedLineAction: Int?
  /// What goes wrong in the leaky form that a leak detector cannot report
  /// (its verdict is then clean in both forms): a task that keeps working
  /// for a freed screen, a callback that would crash. `nil` for a leak.
  public let detectorBlindSpot: String?
  /// What differs in a real app, where the scenario injects a stand-in
  /// (`NotificationCenter.default` and the main queue are global roots there).
  public let inARealApp: String?
  private let expectedStrong: Verdict
  private let expectedWeak: Verdict
  private let make: @MainActor @Sendable (ScenarioMode, ScenarioEnvironment) -> Screen

  /// Creates a scenario. The default script taps every action once, in
  /// order; by default the first action runs the marked line.
  public init(
    id: String,
    title: String,
    pattern: String,
    actions: [ScenarioAction],
    whyItLeaks: String,
    fix: String,
    code: String,
    sourceFile: String = #fileID,
    script: [ScenarioStep]? = nil,
    markedLineAction: Int? = 0,
    detectorBlindSpot: String? = nil,
    inARealApp: String? = nil,
    expected: (strong: Verdict, weak: Verdict),
    makeScreen: @escaping @MainActor @Sendable (ScenarioMode, ScenarioEnvironment) -> Screen
  ) {
    self.id = id
    self.title = title
    self.pattern = pattern
    self.actions = actions
    self.whyItLeaks = whyItLeaks
    self.fix = fix
    self.code = CodeExcerpt(code)
    self.sourceFile = sourceFile
    self.script = script ?? actions.indices.map { .action($0) }
    self.markedLineAction = markedLineAction
    self.detectorBlindSpot = detectorBlindSpot
    self.inARealApp = inARealApp
    self.expectedStrong = expected.strong
    self.expectedWeak = expected.weak
    self.make = makeScreen
  }

  /// What the detector should say after the screen closed, in `mode`.
  public func expectedVerdict(for mode: ScenarioMode) -> Verdict {
    switch mode {
    case .strong: expectedStrong
    case .weak: expectedWeak
    }
  }

  /// The code lines shown for `mode`, the strong or weak line marked by its role.
  public func codeLines(for mode: ScenarioMode) -> [CodeExcerpt.Line] {
    code.lines(for: mode)
  }

  /// Makes the scenario's screen in `mode`; push it on a navigation stack to open it.
  @MainActor
  public func makeScreen(mode: ScenarioMode, environment: ScenarioEnvironment) -> Screen {
    make(mode, environment)
  }
}

/// Something a user can do on a scenario's screen: a button.
public struct ScenarioAction: Sendable, Equatable {
  /// The button's title.
  public let title: String
  /// What tapping it does, in one line.
  public let summary: String

  /// Creates an action.
  public init(_ title: String, _ summary: String) {
    self.title = title
    self.summary = summary
  }
}

/// One step of a scenario's headless script, between opening and closing.
public enum ScenarioStep: Sendable, Equatable {
  /// Taps the button of the action at this index.
  case action(Int)
  /// Taps the action titled so in the alert on top.
  case alertAction(String)
  /// Lets time pass on the scenario's clock.
  case wait(Duration)
}
