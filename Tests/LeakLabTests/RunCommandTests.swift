import Foundation
import LeakLabTestSupport
import Testing

/// `leaklab run` and `leaklab explain` as a user runs them: exit status and output.
@Suite struct RunCommandTests {
  /// The test's script, removed when it ends.
  let folder = TemporaryFolder("leaklab-run")

  /// Writes `text` to a script file and returns its path.
  func script(_ text: String, name: String = "test.leaklab") throws -> String {
    try folder.write(text, to: name)
  }

  @Test func aPassingScriptPrintsEachStepWithItsLabelAndExitsZero() throws {
    let path = try script(
      "select nested-closure\nmode strong\nopen\naction 1\nclose\nwait 1s\nexpect \"Leaked: PhotoScreen#1\"\n"
    )
    let run = try LeakLabBinary.run(["run", path])
    #expect(run.status == 0)
    #expect(run.output.contains("    6  wait 1s"))
    #expect(run.output.contains("Leaked: PhotoScreen#1"))
    #expect(run.output.hasSuffix("1 passed, 0 failed\n"))
  }

  @Test func aFailingExpectationNamesTheLineAndExitsOne() throws {
    let path = try script(
      "always clean\nselect nested-closure\nmode strong\nopen\naction 1\nclose\nwait 1s\n")
    let run = try LeakLabBinary.run(["run", path])
    #expect(run.status == 1)
    #expect(run.output.contains("  FAILED: \(path):7: wait 1s"))
    #expect(run.output.contains("    actual:   \"Leaked: PhotoScreen#1\""))
    #expect(run.output.hasSuffix("0 passed, 1 failed\n"))
  }

  @Test func malformedInputIsAFileLineErrorWithStatusTwo() throws {
    let path = try script("open\njump 3\n")
    let run = try LeakLabBinary.run(["run", path])
    #expect(run.status == 2)
    #expect(run.error.hasPrefix("\(path):2: unknown step \"jump\""))
    #expect(run.error.split(separator: "\n").count == 1)
  }

  @Test func anUnknownScenarioIsAFileLineErrorWithStatusTwo() throws {
    let path = try script("select no-such-thing\n")
    let run = try LeakLabBinary.run(["run", path])
    #expect(run.status == 2)
    #expect(run.error.hasPrefix("\(path):1: unknown scenario \"no-such-thing\""))
  }

  @Test func aMissingFileIsAOneLineErrorWithStatusTwo() throws {
    let run = try LeakLabBinary.run(["run", "/nonexistent/x.leaklab"])
    #expect(run.status == 2)
    #expect(run.error == "/nonexistent/x.leaklab: cannot read the file: no such file\n")
  }

  @Test func explainPrintsTheRetainPathAndRejectsUnknownIDs() throws {
    let explain = try LeakLabBinary.run(["explain", "repeating-timer", "--mode", "strong"])
    #expect(explain.status == 0)
    #expect(
      explain.output.contains(
        "retain cycle: StopwatchScreen#1 → timer: RepeatingWork#1 → work: closure in StopwatchScreen.start() → captures StopwatchScreen#1 (strong)"
      ))
    let fixed = try LeakLabBinary.run(["explain", "repeating-timer", "--mode", "weak"])
    #expect(fixed.output.contains("no cycle, no root path"))
    let unknown = try LeakLabBinary.run(["explain", "nope"])
    #expect(unknown.status == 2)
    #expect(unknown.error == "leaklab: unknown scenario \"nope\" (see leaklab list)\n")
  }
}
