import Foundation
import LeakLabTestSupport
import TerminalAutomation
import Testing
import TextGrid

@testable import LeakLabTerminal

/// TerminalSmoke in a real pseudo-terminal (a private tmux server per test).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct EndToEndTests {
  static let size = Size(width: 60, height: 14)

  /// Starts TerminalSmoke and waits for its first frame.
  func startSmoke(environment: [String: String] = [:]) throws -> TmuxSession {
    let session = try TmuxSession(
      command: [builtExecutable(named: "TerminalSmoke")], size: Self.size, environment: environment)
    try session.waitFor(text: "TerminalSmoke")
    #expect(try session.query("#{mouse_any_flag}") == "1", "the smoke app reports the mouse")
    return session
  }

  /// Waits until the program exited, then checks that the terminal was given
  /// back: main screen, cursor shown, mouse reporting off (else the shell
  /// receives escape sequences on every click).
  func expectRestoredAfterExit(_ session: TmuxSession, status: Int32) throws {
    #expect(try session.waitForExit() == status)
    #expect(try session.query("#{mouse_any_flag}") == "0")
    #expect(try session.query("#{alternate_on}") == "0")
    #expect(try session.query("#{cursor_flag}") == "1")
    #expect(try !session.capture().contains { $0.contains("TerminalSmoke") })
  }

  @Test func theFirstFrameShowsTheBoxTheSizeAndWideTextAligned() throws {
    let session = try startSmoke()
    defer { session.kill() }
    let screen = try session.waitFor(text: "delayed work: ran")
    #expect(screen.count == 14)
    #expect(screen[0].hasPrefix("┌─ TerminalSmoke ─"))
    #expect(screen[1] == "│size: 60×14" + String(repeating: " ", count: 47) + "│")
    #expect(screen[3].hasPrefix("│wide: 漢字 カタカナ 🐛 ok"))
    // Every row, wide text included, ends at the right border.
    #expect(screen.allSatisfy { $0.displayWidth == 60 })
    #expect(try session.query("#{alternate_on}") == "1")
  }

  @Test func keysShowUpWithTheirNames() throws {
    let session = try startSmoke()
    defer { session.kill() }
    let keys = [
      ("Up", "↑"), ("x", "x"), ("Enter", "Enter"), ("Escape", "Esc"), ("BTab", "Shift-Tab"),
      ("PPage", "PgUp"),
      ("Home", "Home"), ("DC", "Del"), ("BSpace", "Backspace"), ("F5", "F5"), ("é", "é"),
    ]
    for (count, (tmuxName, name)) in keys.enumerated() {
      try session.sendKeys(tmuxName)
      try session.waitFor(text: "key: \(name) (\(count + 1))")
    }
  }

  @Test func belowTheMinimumSizeATooSmallMessageReplacesTheFrame() throws {
    let session = try startSmoke()
    defer { session.kill() }
    try session.resize(to: Size(width: 30, height: 8))
    let small = try session.waitFor(text: "30×8, needs 40×10")
    #expect(small.contains { $0.contains("Terminal too small") })
    try session.resize(to: Size(width: 50, height: 12))
    try session.waitFor(text: "size: 50×12")
  }

  @Test func quittingWithQRestoresTheTerminal() throws {
    let session = try startSmoke()
    defer { session.kill() }
    try session.sendKeys("q")
    try expectRestoredAfterExit(session, status: 0)
  }

  @Test(arguments: [SIGTERM, SIGHUP, SIGQUIT])
  func aTerminatingSignalRestoresTheTerminalAndExitsWith128PlusItsNumber(signal: Int32) throws {
    let session = try startSmoke()
    defer { session.kill() }
    let pid = try #require(try session.programProcessID())
    #expect(kill(pid, signal) == 0)
    try expectRestoredAfterExit(session, status: 128 + signal)
  }

  @Test func ctrlCRestoresTheTerminalAndExitsWith130() throws {
    let session = try startSmoke()
    defer { session.kill() }
    try session.sendKeys("C-c")
    try expectRestoredAfterExit(session, status: 128 + SIGINT)
  }

  @Test func aCrashRestoresTheTerminalBeforeTheProcessDies() throws {
    let session = try startSmoke(environment: ["SWIFT_BACKTRACE": "enable=no"])
    defer { session.kill() }
    try session.sendKeys("!")
    try expectRestoredAfterExit(session, status: 128 + SIGILL)
  }

  /// In a terminal, Swift's crash reporter waits up to 30 s for a key after
  /// printing the backtrace; the terminal layer turns that off, so a crash
  /// gives the user their shell back at once.
  /// (Not under a sanitizer: the crash reporter copies the crashed thread's
  /// stack, which AddressSanitizer reports as an error of its own.)
  @Test(.disabled(if: Sanitizers.active != nil, "Swift's crash reporter does not run under a sanitizer"))
  func aCrashExitsWithoutWaitingForAKey() throws {
    let session = try startSmoke(environment: ["SWIFT_BACKTRACE": ""])
    defer { session.kill() }
    try session.sendKeys("!")
    #expect(try session.waitForExit(timeout: .seconds(15)) == 128 + SIGILL)
    #expect(try session.query("#{alternate_on}") == "0")
  }

  @Test func theCrashReporterSettingIsAddedOnlyWhenNothingChoseOne() {
    #expect(CrashReports.extended("") == "interactive=no")
    #expect(CrashReports.extended("color=no") == "color=no,interactive=no")
    #expect(CrashReports.extended("interactive=yes") == nil)
    #expect(CrashReports.extended("enable=no") == nil)
  }

  // MARK: Colours

  /// The parameters of every SGR sequence (`ESC [ … m`) in the captured screen.
  func sgrParameters(_ lines: [String]) -> Set<String> {
    var parameters: Set<String> = []
    for line in lines {
      for sequence in line.split(separator: "\u{1B}[").dropFirst() {
        guard let end = sequence.firstIndex(of: "m") else { continue }
        parameters.formUnion(sequence[..<end].split(separator: ";").map(String.init))
      }
    }
    return parameters
  }

  /// Whether the parameters set a foreground or background colour (39 and 49 reset to the default).
  func setsColours(_ parameters: Set<String>) -> Bool {
    parameters.contains { $0 != "39" && $0 != "49" && $0.count == 2 && "349".contains($0.first!) }
  }

  @Test func colourStylesAreDrawnInColour() throws {
    let session = try startSmoke()
    defer { session.kill() }
    try session.waitFor(text: "delayed work: ran")
    #expect(setsColours(sgrParameters(try session.capture(escapes: true))))
  }

  @Test func withNoColorOnlyAttributesAreUsed() throws {
    let session = try startSmoke(environment: ["NO_COLOR": "1"])
    defer { session.kill() }
    try session.waitFor(text: "delayed work: ran")
    let parameters = sgrParameters(try session.capture(escapes: true))
    #expect(!setsColours(parameters))
    #expect(parameters.isSuperset(of: ["1", "2"]))  // bold and dim survive
  }

  // MARK: Preflight in a terminal

  @Test func anUnknownTerminalTypeExitsWithStatusTwoAndAMessage() throws {
    let session = try TmuxSession(
      command: ["env", "TERM=leaklab-unknown", builtExecutable(named: "TerminalSmoke")], size: Self.size)
    defer { session.kill() }
    #expect(try session.waitForExit() == 2)
    let screen = try session.capture(history: true).joined()
    #expect(screen.contains("TerminalSmoke: unknown terminal type 'leaklab-unknown'"))
  }
}
