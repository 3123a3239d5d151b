import LeakClock
import LeakDetector
import ScreenKit

/// A window, a navigation stack and a leak detector, ready to open scenarios:
/// the path the app model and ``ScenarioRunner`` drive.
///
/// The window's root is a navigation stack whose root screen stands for the
/// catalogue. Opening a scenario pushes its screen; closing goes back (as Esc
/// would) until the screen has left the stack, which hands it — views, child
/// screens and ``OwnedPartsProviding/ownedParts`` — to the detector.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// let harness = ScenarioHarness(scheduler: scheduler)
/// harness.open(Catalogue.delayedDispatch, mode: .strong)
/// harness.runAction(at: 0)
/// harness.close()
/// scheduler.advance(by: .seconds(1))
/// harness.detector.summaryLabel  // "Leaked: SyncScreen#1"
/// ```
@MainActor
public final class ScenarioHarness {
  /// The clock everything waits on.
  public let scheduler: any Scheduler
  /// The detector closed screens are handed to.
  public let detector: LeakDetector
  /// What scenario screens get injected.
  public let environment: ScenarioEnvironment
  /// The window showing the navigation stack.
  public let window: Window
  /// The stack scenarios are pushed on.
  public let navigation: NavigationStack
  /// The screen of the scenario that is open, if any. Held weakly: the
  /// harness must not keep a closed screen alive.
  public private(set) weak var openScreen: Screen?
  /// The scenario that is open, if any.
  public private(set) var openScenario: Scenario?

  /// Creates a harness on `scheduler` with a fresh detector and notification center.
  ///
  /// `runsWorkThatTraps` lets scenario work run that would crash the process
  /// (`leaklab trap` only); `liveInstances` remembers what each closed screen
  /// hands to the detector, to count across runs what is still alive.
  public init(
    scheduler: any Scheduler, configuration: LeakDetector.Configuration = .init(),
    runsWorkThatTraps: Bool = false, liveInstances: LiveInstances? = nil
  ) {
    self.scheduler = scheduler
    let detector = LeakDetector(scheduler: scheduler, configuration: configuration)
    self.detector = detector
    var environment = ScenarioEnvironment(scheduler: scheduler)
    environment.runsWorkThatTraps = runsWorkThatTraps
    environment.activity.naming = { [weak detector] object in detector?.name(of: object) }
    self.environment = environment
    self.window = Window(checker: .scenarios(detector: detector, live: liveInstances))
    self.navigation = NavigationStack(root: Screen(title: "LeakLab"))
    window.rootScreen = navigation
  }

  /// Opens `scenario` in `mode`: makes its screen and pushes it.
  @discardableResult
  public func open(_ scenario: Scenario, mode: ScenarioMode) -> Screen {
    let screen = scenario.makeScreen(mode: mode, environment: environment)
    environment.activity.runOpened()
    navigation.push(screen)
    openScreen = screen
    openScenario = scenario
    return screen
  }

  /// Taps the button of the open scenario's action at `index`; `false` if there is no such button.
  @discardableResult
  public func runAction(at index: Int) -> Bool {
    guard let scenario = openScenario, scenario.actions.indices.contains(index) else { return false }
    return window.tapButton(titled: scenario.actions[index].title)
  }

  /// Runs one script step; `false` if its button or alert action was not there.
  @discardableResult
  public func perform(_ step: ScenarioStep) -> Bool {
    switch step {
    case .action(let index):
      return runAction(at: index)
    case .alertAction(let title):
      return window.tapAlertAction(titled: title)
    case .wait(let duration):
      (scheduler as? ManualScheduler)?.advance(by: duration)
      return true
    }
  }

  /// Taps the shown alert's action at `index`; `false` if no alert is shown or it has no such action.
  ///
  /// The app's number keys tap alert actions by position, as a user sees them:
  ///
  /// ```swift
  /// harness.runAction(at: 0)         // "Delete draft" shows the alert
  /// harness.tapAlertAction(at: 1)    // its second action, "Delete"
  /// ```
  @discardableResult
  public func tapAlertAction(at index: Int) -> Bool {
    guard let actions = window.topAlert?.actions, actions.indices.contains(index) else { return false }
    return window.tapAlertAction(titled: actions[index].title)
  }

  /// What one step back did.
  public enum BackOutcome: Equatable, Sendable {
    /// No scenario was open.
    case nothingOpen
    /// An alert or a modal closed; the scenario's screen is still shown.
    case stillOpen
    /// The scenario's screen left the stack and was handed to the detector;
    /// the harness no longer has an open scenario.
    case closed
  }

  /// Goes back once, as Esc would: cancels an alert, dismisses a modal, or
  /// pops; reports whether that closed the open scenario.
  ///
  /// ```swift
  /// harness.open(Catalogue.alertActionCapture, mode: .strong)
  /// harness.runAction(at: 0)  // shows an alert
  /// harness.goBack()          // .stillOpen: the alert was cancelled
  /// harness.goBack()          // .closed: the screen was popped
  /// ```
  @discardableResult
  public func goBack() -> BackOutcome {
    window.goBack()
    guard openScenario != nil else { return .nothingOpen }
    if isOpenScreenShown { return .stillOpen }
    openScreen = nil
    openScenario = nil
    environment.activity.runClosed()
    return .closed
  }

  /// Goes back (cancelling alerts, dismissing modals, popping) until the open
  /// scenario's screen has left the stack.
  public func close() {
    var attempts = 0
    while isOpenScreenShown, attempts < 10 {
      window.goBack()
      attempts += 1
    }
    if openScenario != nil { environment.activity.runClosed() }
    openScreen = nil
    openScenario = nil
  }

  /// Whether the open scenario's screen is still in the window: pushed on the
  /// stack or presenting. (The harness holds it weakly: gone means not shown.)
  private var isOpenScreenShown: Bool {
    guard let screen = openScreen else { return false }
    return screen.parent != nil || screen.presentingScreen != nil
  }
}
