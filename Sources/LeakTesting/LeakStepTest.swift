import Foundation
import LeakClock
import LeakDetector

/// A UI test in named steps that reads the leak detector's summary label
/// after each step and fails at the first step that leaked.
///
/// After each step's action the test lets time pass — on a
/// ``LeakClock/ManualScheduler`` by advancing it past the detector's grace
/// delay, instantly — then reads ``LeakDetector/LeakDetector/summaryLabel`` and compares
/// it with the step's expected label, `No issues detected` unless told
/// otherwise. Every step's label is kept in ``steps``; ``transcript`` prints
/// them. Only the first mismatch fails the test (a leak stays in the label,
/// so later steps would only repeat it); later ones are still logged.
///
/// ```swift
/// @MainActor @Test func profileFlowDoesNotLeak() {
///   let scheduler = ManualScheduler()
///   let detector = LeakDetector(scheduler: scheduler)
///   let app = DemoApp(detector: detector, scheduler: scheduler)
///   let steps = LeakStepTest(detector: detector)
///   steps.step("open profile") { app.window.tapButton(titled: "Profile") }
///   steps.step("refresh") { app.window.tapButton(titled: "Refresh") }
///   steps.step("close profile") { app.window.goBack() }
///   print(steps.transcript)
/// }
/// ```
///
/// Failure: ``step 3 'close profile' leaked: expected `No issues detected`, got `Leaked: ProfileScreen#1` ``,
/// followed by each leak's retain path when `detector.explainer` is set.
@MainActor
public final class LeakStepTest {
  /// One step that ran: its name, the label read after it, and the verdict.
  public struct Step: Sendable, Equatable, CustomStringConvertible {
    /// The position of the step, from 1.
    public let number: Int
    /// The step's name.
    public let name: String
    /// The label the step expected.
    public let expectedLabel: String
    /// The label read after the step.
    public let label: String
    /// The failure message if the label did not match, else `nil`.
    public let failure: String?

    /// Whether the label matched.
    public var passed: Bool { failure == nil }

    /// `3. close profile -> Leaked: ProfileScreen#1`.
    public var description: String { "\(number). \(name) -> \(label)" }
  }

  /// The detector whose label is read.
  public let detector: LeakDetector
  /// How long to let pass after each step unless the step says otherwise.
  public let settleTime: Duration
  /// The steps run so far, in order.
  public private(set) var steps: [Step] = []

  /// Creates a step test reading `detector`'s label.
  ///
  /// - Parameters:
  ///   - detector: the detector the code under test reports to.
  ///   - settleTime: the time to let pass after each step; the detector's
  ///     grace delay by default, so objects closed in a step are checked.
  public init(detector: LeakDetector, settleTime: Duration? = nil) {
    self.detector = detector
    self.settleTime = settleTime ?? detector.configuration.graceDelay
  }

  /// The first step whose label did not match, if any.
  public var firstFailure: Step? { steps.first { !$0.passed } }

  /// Every step with the label read after it, one a line.
  public var transcript: String { steps.map(\.description).joined(separator: "\n") }

  /// Runs `action` as the next step, lets time pass, and checks the label.
  ///
  /// - Parameters:
  ///   - name: what the user did, e.g. `close profile`.
  ///   - expected: the label expected after the step.
  ///   - settle: the time to let pass; ``settleTime`` by default.
  ///   - action: the step itself.
  /// - Returns: the step with the label read after it.
  @_disfavoredOverload
  @discardableResult
  public func step(
    _ name: String,
    expecting expected: String = SummaryLabel.clean,
    settle: Duration? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ action: () throws -> Void
  ) rethrows -> Step {
    try action()
    let settle = settle ?? settleTime
    if let manual = detector.scheduler as? ManualScheduler {
      manual.advance(by: settle)
    } else {
      RunLoop.main.run(until: Date(timeIntervalSinceNow: settle.seconds))
    }
    return check(name, expected, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs `action` as the next step, lets time pass by suspending, and checks the label.
  ///
  /// The `async` twin of ``step(_:expecting:settle:fileID:filePath:line:column:_:)``,
  /// for a detector on a live scheduler under Swift Testing.
  @discardableResult
  public func step(
    _ name: String,
    expecting expected: String = SummaryLabel.clean,
    settle: Duration? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ action: () async throws -> Void
  ) async rethrows -> Step {
    try await action()
    let settle = settle ?? settleTime
    if let manual = detector.scheduler as? ManualScheduler {
      manual.advance(by: settle)
    } else {
      try? await Task.sleep(for: settle)
    }
    return check(name, expected, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func check(_ name: String, _ expected: String, _ site: CallSite) -> Step {
    let report = detector.report
    let label = report.summaryLabel
    let number = steps.count + 1
    var failure: String?
    if label != expected {
      let verb = expected == SummaryLabel.clean ? " leaked" : ""
      var message = "step \(number) '\(name)'\(verb): expected `\(expected)`, got `\(label)`"
      for leak in report.openLeaks {
        if let path = leak.retainPath { message += "; \(leak.name) retained by: \(path)" }
      }
      failure = message
      if firstFailure == nil { recordFailure(message, at: site) }
    }
    let step = Step(number: number, name: name, expectedLabel: expected, label: label, failure: failure)
    steps.append(step)
    return step
  }
}
