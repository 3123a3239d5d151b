import Foundation
import LeakLabTerminal
import LeakLabTestSupport
import TerminalAutomation
import Testing
import TextGrid

/// Clicks and the wheel, typed into a real pseudo-terminal as the X10 mouse
/// bytes a terminal sends (`ESC [ M` then button, column and row, each + 32).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct MouseTests {
  /// The bytes of a mouse report for `button` at the zero-based cell `point`.
  static func report(button: UInt8, at point: Point) -> [String] {
    [0x1B, 0x5B, 0x4D, 32 + button, UInt8(33 + point.x), UInt8(33 + point.y)]
      .map { String(format: "%02x", $0) }
  }

  @Test func aClickAndTheWheelArriveAsMouseKeysWithTheirCell() throws {
    let session = try TmuxSession(
      command: [builtExecutable(named: "TerminalSmoke")], size: Size(width: 60, height: 14))
    defer { session.kill() }
    try session.waitFor(text: "TerminalSmoke")
    let point = Point(x: 4, y: 3)
    let reports: [(UInt8, String)] = [
      (0, "Click press (4, 3)"), (3, "Click release (4, 3)"),
      (65, "Wheel wheelDown (4, 3)"), (64, "Wheel wheelUp (4, 3)"),
    ]
    for (count, (button, shown)) in reports.enumerated() {
      try session.sendBytes(Self.report(button: button, at: point))
      try session.waitFor(text: "key: \(shown) (\(count + 1))")
    }
  }
}
