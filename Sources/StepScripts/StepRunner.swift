/// Runs a step script on a driver, reading the summary label after every step.
///
/// A script passes when every `expect` holds and, after `always clean`, every
/// step leaves `No issues detected`. It stops at the first failure, which names
/// the step, its line, and the expected and actual label.
///
/// ```swift
/// let result = try StepRunner.run(script, on: driver)
/// print(StepReport.lines(for: result).joined(separator: "\n"))
/// ```
public enum StepRunner {
  /// The label that means "nothing leaked".
  public static let cleanLabel = "No issues detected"

  /// Runs `script`; throws for input the driver rejects (an unknown scenario id).
  public static func run(_ script: StepScript, on driver: some StepDriver) throws(StepScriptError)
    -> ScriptResult
  {
    var records: [StepRecord] = []
    var alwaysClean = false
    for step in script.steps {
      let label: String
      do throws(StepDriverError) {
        if step.command.isAction { try driver.perform(step.command) }
        if case .expect(let expectation) = step.command {
          label = try driver.readLabel { expectation.isMet(by: $0) }
        } else {
          label = try driver.readLabel()
        }
      } catch {
        if case .invalidInput(let message) = error {
          throw StepScriptError(file: script.file, line: step.line, message: message)
        }
        let failure = StepFailure(step: step, expected: nil, actual: nil, message: error.description)
        return ScriptResult(script: script, records: records, failure: failure)
      }
      records.append(StepRecord(step: step, label: label))
      if case .alwaysClean = step.command { alwaysClean = true }
      if let failure = check(step, label: label, alwaysClean: alwaysClean) {
        return ScriptResult(script: script, records: records, failure: failure)
      }
    }
    return ScriptResult(script: script, records: records, failure: nil)
  }

  private static func check(_ step: Step, label: String, alwaysClean: Bool) -> StepFailure? {
    if case .expect(let expectation) = step.command {
      guard !expectation.isMet(by: label) else { return nil }
      return StepFailure(
        step: step, expected: expectation.description, actual: label,
        message: "expected \(expectation), got \"\(label)\"")
    }
    if alwaysClean, step.command.isAction, label != cleanLabel {
      return StepFailure(
        step: step, expected: "\"\(cleanLabel)\"", actual: label,
        message: "leaked after this step (always clean): got \"\(label)\"")
    }
    return nil
  }
}

/// One step as run, with the label read after it.
public struct StepRecord: Sendable, Equatable {
  /// The step.
  public var step: Step
  /// The summary label read after the step.
  public var label: String
}

/// The first failing step of a script.
public struct StepFailure: Sendable, Equatable {
  /// The step that failed.
  public var step: Step
  /// What the label should have been, if the failure is about the label.
  public var expected: String?
  /// What the label was.
  public var actual: String?
  /// One line saying what went wrong.
  public var message: String

  /// Creates a failure.
  public init(step: Step, expected: String?, actual: String?, message: String) {
    self.step = step
    self.expected = expected
    self.actual = actual
    self.message = message
  }
}

/// The outcome of one script.
public struct ScriptResult: Sendable, Equatable {
  /// The script that ran.
  public var script: StepScript
  /// The steps that ran, with their labels.
  public var records: [StepRecord]
  /// The first failure, or nil when the script passed.
  public var failure: StepFailure?

  /// Whether every expectation held.
  public var passed: Bool { failure == nil }

  /// Creates a result.
  public init(script: StepScript, records: [StepRecord], failure: StepFailure?) {
    self.script = script
    self.records = records
    self.failure = failure
  }
}
