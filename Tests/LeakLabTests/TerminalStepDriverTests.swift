import Foundation
import LeakLabTestSupport
import Scenarios
import StepScripts
import TerminalAutomation
import Testing

/// The terminal step driver on the real app: the label after a step is the
/// one the step left, however late the driver gets to read it.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct TerminalStepDriverTests {
  @Test func aLabelReadPastTheGraceDelayIsTheOneTheCloseLeft() throws {
    let driver = try TerminalStepDriver(executable: LeakLabBinary.path, scenarioIDs: Catalogue.all.map(\.id))
    defer { driver.quit() }
    let steps: [StepCommand] = [.select("repeating-timer"), .mode(.strong), .open, .action(1), .close]
    for step in steps { try driver.perform(step) }
    // A reader later than the grace delay, as on a machine busy with a build:
    // the screen says the screen leaked by now, the step left it clean.
    Thread.sleep(forTimeInterval: 1.5)
    #expect(try driver.readLabel() == "No issues detected")
    try driver.perform(.wait(.zero))
    #expect(try driver.readLabel { $0 != "No issues detected" } == "Leaked: StopwatchScreen#1")
  }
}
