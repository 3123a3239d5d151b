import Foundation
import Testing

@testable import TerminalAutomation

/// `posix_spawn` + `waitpid`: output, status, signals, time limits, launch errors.
@Suite struct ChildProcessTests {
  let environment = ProcessInfo.processInfo.environment

  @Test func itCollectsBothStreamsAndTheExitStatus() throws {
    let result = try ChildProcess.run(
      ["sh", "-c", "echo out; echo err >&2; exit 3"], environment: environment)
    #expect(result.status == 3)
    #expect(result.standardOutput == "out\n")
    #expect(result.standardError == "err\n")
  }

  @Test func theChildGetsExactlyTheGivenEnvironmentAndNoInput() throws {
    let result = try ChildProcess.run(
      ["/bin/sh", "-c", "echo \"$ONLY:${HOME-unset}\"; cat"], environment: ["ONLY": "this"])
    #expect(result.standardOutput == "this:unset\n")
    #expect(result.status == 0, "cat reads /dev/null and ends")
  }

  @Test func aSignalEndsItWith128PlusItsNumber() throws {
    let result = try ChildProcess.run(["sh", "-c", "kill -TERM $$"], environment: environment)
    #expect(result.status == 128 + SIGTERM)
  }

  @Test func pastTheTimeLimitTheChildIsKilled() throws {
    let result = try ChildProcess.run(
      ["sleep", "30"], environment: environment, timeout: .milliseconds(200))
    #expect(result.status == 128 + SIGKILL)
  }

  @Test func aMissingProgramIsALaunchErrorThatNamesIt() {
    #expect {
      try ChildProcess.run(["leaklab-no-such-program"], environment: environment)
    } throws: { error in
      (error as? ChildProcess.LaunchError)?.description.hasPrefix("cannot run leaklab-no-such-program: ")
        == true
    }
  }
}
