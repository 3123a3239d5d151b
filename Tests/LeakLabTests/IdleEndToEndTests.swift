import Foundation
import StepScripts
import TerminalAutomation
import Testing
import TextGrid

/// The real `leaklab` with nothing to do sleeps: its main thread wakes only
/// for a key, a resize or work that is due (issue 26, defect 9: it woke 20
/// times a second to poll for keys, 0.40 % CPU).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct IdleEndToEndTests {
  /// How often thread `tid` of process `pid` gave up the CPU by itself: one
  /// per sleep, so one per wake-up.
  static func voluntarySwitches(pid: Int32, tid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8)
    let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
    return Int(line?.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
  }

  @Test func withNothingOpenTheMainThreadDoesNotWakeForASecond() throws {
    let session = try TmuxSession(
      command: [LeakLabBinary.path], size: Size(width: 80, height: 24), environment: ["LEAKLAB_TOUR": "off"])
    defer { session.kill() }
    try session.waitUntil("the first frame") { ScreenLabelReader.label(in: $0) == "No issues detected" }
    // A key is read and drawn at once; then nothing is due.
    try session.sendKeys("Tab")
    try session.waitUntil("the notes' focus") { $0.last?.hasPrefix(" About ") == true }
    let pid = try #require(try session.programProcessID())
    let before = try Self.voluntarySwitches(pid: pid, tid: pid)
    Thread.sleep(forTimeInterval: 1)
    let after = try Self.voluntarySwitches(pid: pid, tid: pid)
    #expect(before >= 0 && after - before <= 2, "\(after - before) wake-ups in one idle second")
  }
}
