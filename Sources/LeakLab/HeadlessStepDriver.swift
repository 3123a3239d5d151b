import LeakClock
import Scenarios
import StepScripts
import TextGrid

/// Runs step scripts on the app model with a manual clock: a 10 s wait is
/// instant. Steps are the same key presses the terminal app gets, and work
/// that is due runs after every step, as the live app's input loop drains the
/// main queue between key presses.
///
/// ```swift
/// let driver = HeadlessStepDriver()
/// let result = try StepRunner.run(script, on: driver)
/// ```
@MainActor
public final class HeadlessStepDriver: @MainActor StepDriver {
  /// The app, as the terminal would show it.
  public let model: AppModel
  /// The clock `wait` advances.
  public let scheduler: ManualScheduler

  /// Creates a driver over a fresh app model on its own manual clock;
  /// `rootPathSearch` as in ``AppModel`` (off: the scripts read labels).
  public init(catalogue: [Scenario] = Catalogue.all, rootPathSearch: RootPathSearch = .off) {
    let scheduler = ManualScheduler()
    self.scheduler = scheduler
    model = AppModel(catalogue: catalogue, scheduler: scheduler, rootPathSearch: rootPathSearch)
    model.resize(to: Self.screenSize)
  }

  public func perform(_ command: StepCommand) throws(StepDriverError) {
    try apply(command)
    // Between two key presses the live app drains the main queue: work that
    // is already due (a `mainQueue.async` completion) runs before the next step.
    scheduler.runDueWork()
    model.tick()
  }

  private func apply(_ command: StepCommand) throws(StepDriverError) {
    switch command {
    case .select(let id):
      guard model.scenarios.contains(where: { $0.id == id }) else {
        throw .invalidInput(
          "unknown scenario \(DisplayText.quoted(id)) (known: \(model.scenarios.map(\.id).joined(separator: ", ")))"
        )
      }
      model.send(.scenarioSelected(id: id))
    case .mode(let mode):
      model.send(.modeSet(ScenarioMode(mode)))
    case .open:
      model.send(.openKeyPressed)
    case .action(let number):
      if model.state.phone?.alert == nil, let open = model.state.openEntry,
        number > open.actions.count
      {
        throw .invalidInput("\(open.id) has \(open.actions.count) action(s), not \(number)")
      }
      model.send(.actionKeyPressed(number))
    case .alert(let number):
      guard let alert = model.state.phone?.alert else { throw .failure("alert \(number): no alert is shown") }
      guard number <= alert.actions.count else {
        throw .invalidInput("the alert has \(alert.actions.count) action(s), not \(number)")
      }
      model.send(.actionKeyPressed(number))
    case .close:
      model.send(.closeKeyPressed)
    case .key(let key):
      model.handle(key)
    case .wait(let duration):
      scheduler.advance(by: duration)
      model.tick()
    case .expect, .alwaysClean:
      break
    }
  }

  /// The label read off the rendered screen by the reader the terminal driver
  /// uses, so a step that hides the overlay fails the same way in both.
  public func readLabel() throws(StepDriverError) -> String {
    let screen = render(model.state, size: Self.screenSize).lines
    guard let label = ScreenLabelReader.label(in: screen) else {
      throw .failure("the detector overlay is not on screen")
    }
    return label
  }
}

extension ScenarioMode {
  /// The mode a script's `mode strong` / `mode weak` names.
  init(_ mode: StepMode) {
    switch mode {
    case .strong: self = .strong
    case .weak: self = .weak
    }
  }
}
