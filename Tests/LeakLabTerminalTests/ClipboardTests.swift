import Foundation
import LeakLabTerminal
import LeakLabTestSupport
import TerminalAutomation
import Testing
import TextGrid

/// OSC 52: what the app copies reaches the terminal's clipboard (tmux's buffer here).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct ClipboardTests {
  @Test func theSequenceIsOSC52WithBase64() {
    #expect(Terminal.clipboardSequence(for: "A#1 → b") == "\u{1B}]52;c;QSMxIOKGkiBi\u{07}")
  }

  @Test func aCopyRequestReachesTheClipboard() throws {
    let session = try TmuxSession(
      command: [builtExecutable(named: "TerminalSmoke")], size: Size(width: 60, height: 14))
    defer { session.kill() }
    try session.waitFor(text: "TerminalSmoke")
    #expect(session.clipboard() == nil)
    try session.sendKeys("y")
    try session.waitFor(text: "key: y (1)")
    try session.waitUntil("the clipboard") { _ in session.clipboard() != nil }
    #expect(session.clipboard() == "TerminalSmoke → clipboard")
  }
}
