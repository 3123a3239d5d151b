import Foundation
import Testing

/// `leaklab trap`: the crash `unowned-capture` causes, in a process of its
/// own (the app and the tests only ever report it).
@Suite struct TrapCommandTests {
  @Test func theUnownedCaptureCrashesWithTheRuntimesMessage() throws {
    let run = try LeakLabBinary.run(
      ["trap", "unowned-capture"], environment: ["SWIFT_BACKTRACE": "enable=no"])
    #expect(run.status == SIGABRT, "killed by the runtime's abort")
    #expect(run.output.hasPrefix("The screen closed and was freed;"))
    #expect(
      run.error.contains("Fatal error: Attempted to read an unowned reference but object 0x"), "\(run.error)")
  }

  @Test func aScenarioThatDoesNotCrashIsAOneLineError() throws {
    let run = try LeakLabBinary.run(["trap", "closure-capture"])
    #expect(run.status == 2)
    #expect(
      run.error == "leaklab: \"closure-capture\" does not crash; a scenario that does: unowned-capture\n")
  }
}
