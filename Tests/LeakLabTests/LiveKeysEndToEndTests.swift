import Foundation
import LeakLab
import LeakLabTestSupport
import StepScripts
import TerminalAutomation
import Testing
import TextGrid

/// The htop/lazygit/k9s keys in the real `leaklab`, in a pseudo-terminal: `y`
/// reaches the clipboard, `r` writes a file, `/` filters, Tab focuses, the mouse clicks.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct LiveKeysEndToEndTests {
  /// Where `r` writes: removed when the test ends.
  let folder = TemporaryFolder("leaklab-live-keys")
  var directory: URL { folder.url }

  /// `leaklab` started in `directory` (where `r` writes), at 120×40.
  func start() throws -> TmuxSession {
    let session = try TmuxSession(
      command: ["sh", "-c", "cd \"$1\" && exec \"$2\"", "sh", directory.path, LeakLabBinary.path],
      size: Size(width: 120, height: 40), environment: ["LEAKLAB_TOUR": "off"])
    try session.waitUntil("the first frame") { ScreenLabelReader.label(in: $0) == "No issues detected" }
    return session
  }

  /// Opens the alert scenario, taps Delete, closes it and waits for both leaks.
  func leakTheAlertScenario(in session: TmuxSession) throws {
    try session.sendKeys("Down", "Down", "Down", "Enter")
    try session.waitFor(text: "[1 Delete draft]")
    try session.sendKeys("1")
    try session.waitFor(text: "2 Delete")
    try session.sendKeys("2", "Escape")
    try session.waitUntil("both leaks") {
      ScreenLabelReader.label(in: $0) == "Leaked: AlertController#1, DraftsScreen#1"
    }
  }

  @Test func yPutsTheRetainPathOnTheClipboardAndRWritesTheReport() throws {
    let session = try start()
    defer { session.kill() }
    try leakTheAlertScenario(in: session)
    try session.sendKeys("Tab", "Tab", "Tab")
    try session.waitUntil("the detector's focus") { $0.last?.hasPrefix(" Detector ") == true }
    try session.sendKeys("y")
    try session.waitFor(text: "Copied the retain path of AlertController#1 to the clipboard")
    try session.waitUntil("the clipboard") { _ in session.clipboard() != nil }
    let copied = try #require(session.clipboard())
    #expect(copied.hasPrefix("retain cycle: AlertController#1 → actions[1]: AlertAction#1 → "))
    try session.sendKeys("r")
    let file = directory.appendingPathComponent("leaklab-report-1-alert-action-capture-strong.json")
    try session.waitFor(text: "Report: ./leaklab-report-1-alert-action-capture-strong.json")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    #expect(json?["label"] as? String == "Leaked: AlertController#1, DraftsScreen#1")
  }

  /// The live app, whose main queue runs and whose scheduler arms dispatch
  /// timers all the time (libdispatch moves its timer heap's array with
  /// them), names the dispatch source's leak from libdispatch's global, as
  /// `leaklab explain` does headless.
  @Test(.memoryViewSupported) func aDispatchSourceLeakIsExplainedFromLibdispatchsGlobalInTheLiveApp() throws {
    try explainTheDispatchSourceLeakFromTheTimerHeap()
  }

  private func explainTheDispatchSourceLeakFromTheTimerHeap() throws {
    let session = try start()
    defer { session.kill() }
    try session.sendKeys("/")
    try session.type("DispatchSource")
    try session.sendKeys("Enter", "Enter")
    try session.waitFor(text: "[1 Start]")
    try session.sendKeys("1")
    try session.waitFor(text: "Polled 1×")
    try session.sendKeys("Escape")
    try session.waitUntil("the leak") { ScreenLabelReader.label(in: $0) == "Leaked: UploadProgressScreen#1" }
    // The memory search runs in the background; its answer replaces the quick one.
    try session.waitFor(text: "held from root: global _dispatch_timers_heap", timeout: .seconds(30))
    try session.sendKeys("e")
    try session.waitFor(text: "global _dispatch_timers_heap")
    // Steps through untyped memory are folded until `d` shows them.
    try session.waitFor(text: "untyped blocks (d shows them)")
    try session.sendKeys("d")
    try session.waitFor(text: "Block (malloc block, 56 B)")
  }

  @Test func slashFiltersAndEnterOpensTheMatch() throws {
    let session = try start()
    defer { session.kill() }
    try session.sendKeys("/")
    try session.type("timer")
    try session.waitFor(text: "Scenarios · /timer▏")
    try session.sendKeys("Enter", "Enter")
    try session.waitFor(text: "Phone · strong")
    try session.waitFor(text: "Stopwatch")
  }

  @Test func theWheelScrollsThePaneUnderThePointerAndAClickSelectsAScenario() throws {
    let session = try start()
    defer { session.kill() }
    // The first scenario's code is scrolled to its marked line, eleven lines
    // down (the pane's last row is the lint's line).
    try session.waitFor(text: "─ ↑ 11  ↓ 1 more ─┘")
    try session.sendBytes(MouseReport.bytes(button: 64, at: Point(x: 90, y: 8)))
    try session.waitFor(text: "─ ↑ 8  ↓ 4 more ─┘")
    // Row 6 of the screen is the fifth scenario, Delayed dispatch.
    try session.sendBytes(MouseReport.bytes(button: 0, at: Point(x: 4, y: 5)))
    try session.waitFor(text: "mainQueue.asyncAfter(10 s)")
    try session.sendBytes(MouseReport.bytes(button: 3, at: Point(x: 4, y: 5)))
    try session.sendKeys("Enter")
    try session.waitFor(text: "[1 Sync in 10 s]")
  }

  @Test func tabMovesTheFocusAndTheStatusBarSaysWhere() throws {
    let session = try start()
    defer { session.kill() }
    // The status bar may be drawn after the first frame (seen under TSan).
    try session.waitUntil("the list's focus at start") { $0.last?.hasPrefix(" Scenarios ") == true }
    try session.sendKeys("Tab")
    try session.waitUntil("the notes' focus") { $0.last?.hasPrefix(" About ") == true }
    try session.sendKeys("BTab")
    try session.waitUntil("the list's focus") { $0.last?.hasPrefix(" Scenarios ") == true }
  }
}

/// The bytes a terminal sends for a mouse report in X10 mode: `ESC [ M`, then
/// the button, column and row, each plus 32 (cells counted from one).
enum MouseReport {
  static func bytes(button: UInt8, at point: Point) -> [String] {
    [0x1B, 0x5B, 0x4D, 32 + button, UInt8(33 + point.x), UInt8(33 + point.y)]
      .map { String(format: "%02x", $0) }
  }
}
