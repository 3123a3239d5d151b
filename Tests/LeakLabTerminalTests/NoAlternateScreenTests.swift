import Foundation
import LeakLabTerminal
import LeakLabTestSupport
import TerminalAutomation
import Testing
import TextGrid

/// A terminal without an alternate screen (`TERM=vt100`): quitting must not
/// leave the app's last frame under the shell prompt (issue 10, defect 6).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct NoAlternateScreenTests {
  func start() throws -> TmuxSession {
    let session = try TmuxSession(
      command: ["env", "TERM=vt100", builtExecutable(named: "TerminalSmoke")],
      size: Size(width: 60, height: 14))
    try session.waitFor(text: "TerminalSmoke")
    #expect(try session.query("#{alternate_on}") == "0")
    return session
  }

  @Test(arguments: ["q", "C-c"])
  func quittingClearsTheFrame(key: String) throws {
    let session = try start()
    defer { session.kill() }
    try session.sendKeys(key)
    #expect(try session.waitForExit() == (key == "q" ? 0 : 128 + SIGINT))
    let screen = try session.capture()
    #expect(!screen.contains { $0.contains("TerminalSmoke") || $0.contains("q quits") }, "\(screen)")
    #expect(!screen.contains { $0.contains("$<") })
    #expect(try session.query("#{cursor_flag}") == "1")
  }
}
