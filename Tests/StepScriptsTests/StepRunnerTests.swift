import StepScripts
import Testing

/// A driver whose label is scripted: each action step may change it.
@MainActor
final class FakeDriver: @MainActor StepDriver {
  var label = "No issues detected"
  var performed: [StepCommand] = []
  var onPerform: (StepCommand, FakeDriver) throws(StepDriverError) -> Void = { _, _ in }

  func perform(_ command: StepCommand) throws(StepDriverError) {
    performed.append(command)
    try onPerform(command, self)
  }

  func readLabel() throws(StepDriverError) -> String { label }
}

@MainActor
@Suite struct StepRunnerTests {
  func script(_ text: String) throws -> StepScript {
    try StepScriptParser.parse(text, file: "t.leaklab")
  }

  @Test func theLabelIsReadAfterEveryStep() throws {
    let driver = FakeDriver()
    driver.onPerform = { command, driver in
      if command == .wait(.seconds(1)) { driver.label = "Leaked: A#1" }
    }
    let result = try StepRunner.run(script("open\nclose\nwait 1s\nexpect \"Leaked: A#1\""), on: driver)
    #expect(result.passed)
    #expect(
      result.records.map(\.label) == [
        "No issues detected", "No issues detected", "Leaked: A#1", "Leaked: A#1",
      ])
    #expect(driver.performed == [.open, .close, .wait(.seconds(1))])
  }

  /// A driver in real time: its label comes a few reads late.
  @MainActor
  final class LateDriver: @MainActor StepDriver {
    var reads = 0
    func perform(_ command: StepCommand) throws(StepDriverError) {}
    func readLabel() throws(StepDriverError) -> String {
      reads += 1
      return reads < 4 ? "No issues detected" : "Leaked: A#1"
    }
    func readLabel(until isMet: (String) -> Bool) throws(StepDriverError) -> String {
      var label = try readLabel()
      while !isMet(label), reads < 10 { label = try readLabel() }
      return label
    }
  }

  @Test func anExpectationWaitsAsTheDriverWaitsForItsLabel() throws {
    let driver = LateDriver()
    let result = try StepRunner.run(script("close\nwait 1s\nexpect \"Leaked: A#1\""), on: driver)
    #expect(result.passed)
    #expect(result.records.map(\.label) == ["No issues detected", "No issues detected", "Leaked: A#1"])
    #expect(driver.reads == 4)
  }

  @Test func aFailingExpectationNamesStepLineExpectedAndActual() throws {
    let driver = FakeDriver()
    driver.label = "Leaked: A#1"
    let result = try StepRunner.run(script("open\n\nexpect clean\nclose"), on: driver)
    let failure = try #require(result.failure)
    #expect(failure.step.line == 3)
    #expect(failure.expected == "\"No issues detected\"")
    #expect(failure.actual == "Leaked: A#1")
    #expect(result.records.count == 2)  // stopped at the failure
    #expect(
      StepReport.lines(for: result).suffix(3) == [
        "  FAILED: t.leaklab:3: expect clean",
        "    expected: \"No issues detected\"",
        "    actual:   \"Leaked: A#1\"",
      ])
  }

  @Test func alwaysCleanFailsAtTheFirstStepThatLeaks() throws {
    let driver = FakeDriver()
    driver.onPerform = { command, driver in
      if command == .close { driver.label = "Leaked: Screen#1" }
    }
    let result = try StepRunner.run(script("always clean\nopen\naction 1\nclose\nopen"), on: driver)
    #expect(result.failure?.step.line == 4)
    #expect(result.failure?.message == "leaked after this step (always clean): got \"Leaked: Screen#1\"")
  }

  @Test func invalidInputFromTheDriverIsAFileLineError() throws {
    let driver = FakeDriver()
    driver.onPerform = { command, _ throws(StepDriverError) in
      if case .select(let id) = command { throw .invalidInput("unknown scenario \"\(id)\"") }
    }
    #expect(throws: StepScriptError(file: "t.leaklab", line: 2, message: "unknown scenario \"nope\"")) {
      try StepRunner.run(try script("open\nselect nope"), on: driver)
    }
  }

  @Test func aDriverFailureFailsTheScriptWithItsMessage() throws {
    let driver = FakeDriver()
    driver.onPerform = { _, _ throws(StepDriverError) in throw .failure("the app exited") }
    let result = try StepRunner.run(script("open"), on: driver)
    #expect(result.failure?.message == "the app exited")
    #expect(StepReport.lines(for: result).last == "    the app exited")
  }

  @Test func theSummaryCountsScripts() throws {
    let passing = try StepRunner.run(script("expect clean"), on: FakeDriver())
    let driver = FakeDriver()
    driver.label = "Leaked: X#1"
    let failing = try StepRunner.run(script("expect clean"), on: driver)
    #expect(StepReport.summary([passing, failing, passing]) == "2 passed, 1 failed")
  }

  @Test func theReportShowsEachStepBesideItsLabel() throws {
    let result = try StepRunner.run(script("open\nexpect clean"), on: FakeDriver())
    #expect(
      StepReport.lines(for: result) == [
        "t.leaklab",
        "    1  open          No issues detected",
        "    2  expect clean  ✔",
        "  passed",
      ])
  }
}
