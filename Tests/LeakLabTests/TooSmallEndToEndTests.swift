import Foundation
import LeakLab
import LeakLabTerminal
import StepScripts
import TerminalAutomation
import Testing
import TextGrid

/// The real `leaklab` below its minimum size (issue 10, defect 4): keys do not
/// act behind the "too small" message, and the message says `q` quits.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct TooSmallEndToEndTests {
  @Test func keysDoNothingBehindTheTooSmallMessageAndQQuits() throws {
    let session = try TmuxSession(
      command: [LeakLabBinary.path], size: Size(width: 60, height: 20), environment: ["LEAKLAB_TOUR": "off"])
    defer { session.kill() }
    // Both lines of the message: a capture may fall between the two lines' drawing.
    try session.waitUntil("the whole too-small message") { screen in
      screen.contains { $0.contains("60×20, needs 80×24") }
        && screen.contains { $0.contains("enlarge it, or q quits") }
    }
    try session.sendKeys("Enter", "1")
    // Give the app its input turns before enlarging; then nothing may be open.
    usleep(300_000)
    try session.resize(to: Size(width: 100, height: 30))
    // The whole frame (the log is drawn last), then: nothing was opened.
    let screen = try session.waitUntil("the app's frame") { screen in
      ScreenLabelReader.label(in: screen) != nil && screen.last?.contains("q quit") == true
    }
    #expect(!screen.contains { $0.contains("Phone · ") })
    #expect(screen.contains { $0.contains("Nothing yet: Enter opens a scenario.") })
    try session.resize(to: Size(width: 60, height: 20))
    try session.waitFor(text: "60×20, needs 80×24")
    try session.sendKeys("q")
    #expect(try session.waitForExit() == 0)
    #expect(try session.query("#{alternate_on}") == "0")
  }
}
