import Foundation
import LeakLab
import LeakLabTestSupport
import Scenarios
import StepScripts
import TerminalAutomation
import Testing
import TextGrid

/// The real `leaklab` binary in a pseudo-terminal (a private tmux server per test).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct EndToEndTests {
  static let size = Size(width: 100, height: 30)

  /// The app with the guided tour hidden (unless `environment` says otherwise).
  func start(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> TmuxSession {
    try TmuxSession(
      command: [LeakLabBinary.path] + arguments, size: Self.size,
      environment: ["LEAKLAB_TOUR": "off"].merging(environment) { $1 })
  }

  /// Waits until the overlay on screen reads `label`.
  @discardableResult
  func waitForLabel(_ label: String, in session: TmuxSession, timeout: Duration = .seconds(10)) throws
    -> [String]
  {
    try session.waitUntil("the label \"\(label)\"", timeout: timeout) {
      ScreenLabelReader.label(in: $0) == label
    }
  }

  /// Presses Esc until the open scenario has closed (alerts and pushed screens close first).
  func closeScenario(in session: TmuxSession) throws {
    for _ in 0..<5 {
      try session.sendKeys("Escape")
      let closed = try? session.waitUntil("the scenario to close", timeout: .seconds(1)) { screen in
        !screen.contains { $0.contains("Phone · ") }
      }
      if closed != nil { return }
    }
    throw TmuxSession.Failure.timedOut(waitingFor: "the scenario to close", screen: try session.capture())
  }

  func expectRestoredAfterExit(_ session: TmuxSession, status: Int32) throws {
    #expect(try session.waitForExit() == status)
    #expect(try session.query("#{alternate_on}") == "0")
    #expect(try session.query("#{cursor_flag}") == "1")
    #expect(try !session.capture().contains { $0.contains("Detector") })
  }

  @Test func theFirstFrameSaysNoIssuesDetectedHelpShowsAndQQuits() throws {
    let session = try start()
    defer { session.kill() }
    try waitForLabel("No issues detected", in: session)
    // The status bar is the frame's last line (waited for: a slow build may
    // be captured while the frame is still being written).
    let first = try session.waitFor(text: "? help")
    #expect(first.last?.contains("? help") == true)
    #expect(try session.query("#{alternate_on}") == "1")
    try session.sendKeys("?")
    try session.waitFor(text: "Tap the first action")
    try session.sendKeys("q")
    try expectRestoredAfterExit(session, status: 0)
  }

  @Test func belowTheMinimumSizeItSaysTheTerminalIsTooSmall() throws {
    let session = try start()
    defer { session.kill() }
    try waitForLabel("No issues detected", in: session)
    try session.resize(to: Size(width: 60, height: 20))
    try session.waitFor(text: "60×20, needs 80×24")
    try session.resize(to: Self.size)
    try waitForLabel("No issues detected", in: session)
    try session.sendKeys("C-c")
    try expectRestoredAfterExit(session, status: 128 + SIGINT)
  }

  @Test func aDumbTerminalGetsAOneLineErrorAndStatusTwo() throws {
    let session = try TmuxSession(command: ["env", "TERM=dumb", LeakLabBinary.path], size: Self.size)
    defer { session.kill() }
    #expect(try session.waitForExit() == 2)
    let screen = try session.capture(history: true).filter { !$0.isEmpty }
    #expect(
      screen == [
        "leaklab: TERM=dumb cannot show a full-screen interface; use a terminal such as xterm-256color"
      ])
  }

  @Test func versionAndHelpPrintWithoutATerminal() throws {
    let version = try LeakLabBinary.run(["--version"])
    #expect(version.status == 0)
    #expect(version.output == "\(LeakLabVersion.current)\n")
    let help = try LeakLabBinary.run(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("USAGE: leaklab"))
    let piped = try LeakLabBinary.run([])
    #expect(piped.status == 2)
    #expect(piped.error.hasPrefix("leaklab: ") && piped.error.filter { $0 == "\n" }.count == 1)
  }

  /// The same scenario leaks in its strong form and stays clean, past the grace delay, in its weak form.
  @Test func closureCaptureLeaksInStrongModeAndNotInWeakMode() throws {
    let session = try start()
    defer { session.kill() }
    try waitForLabel("No issues detected", in: session)
    let index = try #require(Catalogue.all.firstIndex { $0.id == "closure-capture" })
    for _ in 0..<index { try session.sendKeys("Down") }
    let actions = Catalogue.all[index].actions.indices.map { "\($0 + 1)" }

    try session.sendKeys("Enter")
    try session.waitFor(text: "Phone · strong")
    for key in actions { try session.sendKeys(key) }
    try closeScenario(in: session)
    try waitForLabel("Leaked: LoadFeedUseCase#1, FeedService#1", in: session)

    try session.sendKeys("w")
    try session.sendKeys("Enter")
    try session.waitFor(text: "Phone · weak")
    try waitForLabel("No issues detected", in: session)
    for key in actions { try session.sendKeys(key) }
    try closeScenario(in: session)
    // Real time: the grace delay is 1 s; every frame for 1.5 s after the close must read clean.
    try session.requireThroughout("the label \"No issues detected\"", for: .milliseconds(1500)) {
      ScreenLabelReader.label(in: $0) == "No issues detected"
    }

    try session.sendKeys("q")
    try expectRestoredAfterExit(session, status: 0)
  }

  /// The live app searches its own memory in the background for what holds
  /// each leak: its own bookkeeping (the background queue's closures, the
  /// explanation log and its strings, the detector's queue of expectations)
  /// is never a root path of a scenario's object, nor a holder its strong
  /// count admits. Seen at 80×24: "also held from root: global static
  /// BackgroundWork.shared" through a word in an explanation's string;
  /// "1 of 2 strong references found: one is held from memory no metadata
  /// describes" for the alert, through a consumed expectation's address.
  @Test(
    .memoryViewSupported,
    arguments: [
      (id: "closure-capture", taps: ["1"], label: "Leaked: LoadFeedUseCase#1, FeedService#1"),
      (id: "alert-action-capture", taps: ["1", "2"], label: "Leaked: AlertController#1, DraftsScreen#1"),
    ])
  func aLeaksPathNeverRunsThroughTheAppsOwnBookkeeping(id: String, taps: [String], label: String) throws {
    let session = try TmuxSession(
      command: [LeakLabBinary.path], size: Size(width: 80, height: 24), environment: ["LEAKLAB_TOUR": "off"])
    defer { session.kill() }
    try waitForLabel("No issues detected", in: session)
    let index = try #require(Catalogue.all.firstIndex { $0.id == id })
    for _ in 0..<index { try session.sendKeys("Down") }
    try session.sendKeys("Enter")
    try session.waitFor(text: "Phone · strong")
    for key in taps {
      try session.sendKeys(key)
      usleep(200_000)
    }
    try closeScenario(in: session)
    try waitForLabel(label, in: session)
    try session.sendKeys("Tab", "Tab", "Tab")
    try session.waitUntil("the detector's focus") { $0.last?.hasPrefix(" Detector ") == true }
    let names = label.dropFirst("Leaked: ".count).split(separator: ", ").map(String.init)
    for (position, name) in names.enumerated() {
      if position > 0 { try session.sendKeys("Down") }
      // The memory search's answer (it accounts for the strong references) replaces the quick one.
      var path = ""
      let deadline = ContinuousClock.now + .seconds(30)
      while !path.contains(" found"), ContinuousClock.now < deadline {
        try session.sendKeys("y")
        try session.waitFor(text: "Copied the retain path of \(name)")
        usleep(200_000)
        path = session.clipboard() ?? ""
      }
      #expect(path.contains(" found"), "the memory search answered: \(path)")
      #expect(!path.contains("held from root"), "\(name): \(path)")
      #expect(!path.contains("held from memory no metadata describes"), "\(name): \(path)")
    }
    let screen = try session.capture().joined(separator: "\n")
    #expect(!screen.contains("held from root") && !screen.contains("BackgroundWork"), "\(screen)")
  }

  /// The explain view in the real terminal: the cycle drawn, the fix, PgDn scrolls.
  @Test(
    .enabled(
      if: Catalogue.all.contains { $0.id == "notification-observer" }, "the catalogue is not merged yet"))
  func theExplainViewDrawsTheCycleAndScrolls() throws {
    let session = try start()
    defer { session.kill() }
    try waitForLabel("No issues detected", in: session)
    let index = Catalogue.all.firstIndex { $0.id == "notification-observer" }!
    for _ in 0..<index { try session.sendKeys("Down") }
    try session.sendKeys("Enter")
    try session.waitFor(text: "Phone · strong")
    for number in Catalogue.all[index].actions.indices { try session.sendKeys("\(number + 1)") }
    try closeScenario(in: session)
    try session.waitUntil("a Leaked: label") { ScreenLabelReader.label(in: $0) == "Leaked: InboxScreen#1" }
    try session.sendKeys("e")
    // The whole frame, box and bottom border, not one caught half drawn; the
    // drawing may be redrawn once when the app's memory search (off the main
    // thread) finishes, so the conservative hop is waited for too.
    let first = try session.waitUntil("the drawing, its conservative hop and its scroll mark") { screen in
      screen.contains { $0.contains("│ InboxScreen#1 │◀━") } && screen.contains { $0.contains(" more ─") }
        && screen.contains { $0.contains("┇ word 3 (conservative)") }
    }
    #expect(first.contains { $0.contains("Fix: ") })
    try session.sendKeys("NPage")
    let scrolled = try session.waitUntil("the explain view to scroll") { screen in
      screen.contains { $0.contains("─ ↑ ") }
    }
    #expect(scrolled.contains { $0.contains("┗━━") })
    #expect(!scrolled.contains { $0.contains("1 of 1: InboxScreen#1") })
    try session.sendKeys("PPage")
    try session.waitFor(text: "1 of 1: InboxScreen#1")
    try session.sendKeys("Escape")
    try waitForLabel("Leaked: InboxScreen#1", in: session)
    try session.sendKeys("q")
    try expectRestoredAfterExit(session, status: 0)
  }
}
