import TextGrid

/// A parsed step script: one UI step a line, run top to bottom.
///
/// ```text
/// # The closure-capture scenario leaks in its strong form.
/// select closure-capture
/// mode strong
/// open
/// action 1
/// close
/// wait 1s
/// expect "Leaked: LoadFeedUseCase#1"
/// ```
public struct StepScript: Sendable, Equatable {
  /// Where the script came from, for messages (`Scenarios/Scripts/x.leaklab`).
  public var file: String
  /// The steps, in order, with their line numbers.
  public var steps: [Step]

  /// Creates a script.
  public init(file: String, steps: [Step]) {
    self.file = file
    self.steps = steps
  }
}

/// One line of a step script.
public struct Step: Sendable, Equatable {
  /// The 1-based line number in the file.
  public var line: Int
  /// The step as written, without comments or surrounding spaces.
  public var text: String
  /// What the step does.
  public var command: StepCommand

  /// Creates a step.
  public init(line: Int, text: String, command: StepCommand) {
    self.line = line
    self.text = text
    self.command = command
  }
}

/// What a step does.
public enum StepCommand: Sendable, Equatable {
  /// Selects a scenario in the catalogue by id: `select closure-capture`.
  case select(String)
  /// Sets the selected scenario's capture mode: `mode strong` or `mode weak`.
  case mode(StepMode)
  /// Opens the selected scenario: `open`.
  case open
  /// Taps the open scenario's action by number, from 1: `action 1`.
  case action(Int)
  /// Taps the shown alert's action by number, from 1: `alert 2`.
  case alert(Int)
  /// Closes the top alert or screen, as Esc does: `close`.
  case close
  /// Presses a key: `key w`, `key Esc`, `key Down` (names in ``StepScriptParser/keyNames``).
  case key(Key)
  /// Lets time pass: `wait 10s`, `wait 250ms`, `wait 1.5s`.
  case wait(Duration)
  /// Checks the summary label.
  case expect(LabelExpectation)
  /// From here on, every step must leave the label at `No issues detected`.
  case alwaysClean

  /// Whether the step changes the app (expectations and directives only read).
  public var isAction: Bool {
    switch self {
    case .expect, .alwaysClean: false
    default: true
    }
  }
}

/// A capture mode as scripts spell it: `mode strong` or `mode weak`.
///
/// The script format's own word for the app's `ScenarioMode` (same raw
/// values, checked by a test): StepScripts depends on nothing but TextGrid, so
/// it cannot name the catalogue's type.
public enum StepMode: String, Sendable, Equatable, CaseIterable {
  /// The leaky form.
  case strong
  /// The fixed form.
  case weak
}

/// A check of the summary label.
public enum LabelExpectation: Sendable, Equatable, CustomStringConvertible {
  /// The label equals the text exactly.
  case equals(String)
  /// The label contains the text.
  case contains(String)

  /// Whether `label` meets the expectation.
  public func isMet(by label: String) -> Bool {
    switch self {
    case .equals(let text): label == text
    case .contains(let text): label.contains(text)
    }
  }

  public var description: String {
    switch self {
    case .equals(let text): "\"\(text)\""
    case .contains(let text): "a label containing \"\(text)\""
    }
  }
}
