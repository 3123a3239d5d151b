import Foundation
import MemoryView
import StepScripts
import TextGrid

/// Runs step scripts against the real `leaklab` app in a pseudo-terminal, in
/// real time, reading the summary label off the screen.
///
/// Steps become key presses (`open` is Enter, `close` is Esc, `action 2` is
/// `2`); `wait` really waits. After each key the driver lets the screen settle.
/// The label after a step of keys is the one the app drew right after the
/// last key (from its ``LabelLog``, so that a machine too busy to capture the
/// screen in time still reads what a person saw); after a `wait`, the one on
/// the screen.
///
/// ```swift
/// let driver = try TerminalStepDriver(executable: "/path/to/leaklab", scenarioIDs: ids)
/// let result = try StepRunner.run(script, on: driver)
/// driver.quit()
/// ```
public final class TerminalStepDriver: StepDriver {
  private let session: TmuxSession
  private let scenarioIDs: [String]
  private var selected: String?
  private var modes: [String: StepMode] = [:]
  /// The app's label log, and how many keys were sent so far.
  private let labelLogPath: String
  private var keysSent = 0
  /// Whether the label is read off the screen: after a `wait`, and after an
  /// `expect` that waited for its label; not after keys.
  private var readsScreen = false

  /// Starts `executable` in a private tmux server and waits for its first frame.
  ///
  /// - Parameters:
  ///   - scenarioIDs: the catalogue's ids in list order (to select by id).
  ///   - initialMode: every scenario's mode when the app starts.
  public init(
    executable: String, arguments: [String] = [], scenarioIDs: [String], initialMode: StepMode = .strong,
    size: Size = TerminalStepDriver.screenSize
  ) throws(StepDriverError) {
    self.scenarioIDs = scenarioIDs
    for id in scenarioIDs { modes[id] = initialMode }
    labelLogPath =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("leaklab-labels-\(UUID().uuidString)").path
    do {
      // The guided tour stays hidden: a script's steps are its own.
      session = try TmuxSession(
        command: [executable] + arguments, size: size,
        environment: ["LEAKLAB_TOUR": "off", LabelLog.environmentVariable: labelLogPath])
      try session.waitUntil("the detector overlay", timeout: .seconds(15)) {
        ScreenLabelReader.label(in: $0) != nil
      }
    } catch {
      throw .failure("could not start \(executable) in a terminal: \(error)")
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: labelLogPath) }

  public func perform(_ command: StepCommand) throws(StepDriverError) {
    if command.isAction { readsScreen = false }
    switch command {
    case .select(let id):
      guard let index = scenarioIDs.firstIndex(of: id) else {
        throw .invalidInput(
          "unknown scenario \(DisplayText.quoted(id)) (known: \(scenarioIDs.joined(separator: ", ")))")
      }
      try send(Array(repeating: "Up", count: scenarioIDs.count) + Array(repeating: "Down", count: index))
      selected = id
    case .mode(let mode):
      guard let id = selected else { throw .invalidInput("mode needs a scenario: select one first") }
      if modes[id] != mode {
        try send(["w"])
        modes[id] = mode
      }
    case .open: try send(["Enter"], changesTheScreen: true)
    case .action(let number), .alert(let number): try send(["\(number)"])
    case .close: try send(["Escape"], changesTheScreen: true)
    case .key(let key):
      guard let name = Self.tmuxName(key) else { throw .invalidInput("\(key.name) cannot be typed") }
      try send([name])
    case .wait(let duration):
      Thread.sleep(forTimeInterval: duration.secondsValue)
      try settle()
      readsScreen = true
    case .expect, .alwaysClean: break
    }
  }

  public func readLabel() throws(StepDriverError) -> String {
    // The overlay must be on screen whichever label is read (`key ?` hides it).
    let onScreen = try screenLabel()
    return readsScreen ? onScreen : try labelAfterLastKey()
  }

  private func screenLabel() throws(StepDriverError) -> String {
    guard let label = ScreenLabelReader.label(in: try screen()) else {
      throw .failure("the detector overlay is not on screen")
    }
    return label
  }

  /// The label of the first frame the app drew after every key sent so far.
  private func labelAfterLastKey() throws(StepDriverError) -> String {
    let clock = ContinuousClock()
    let deadline = clock.now + Self.expectationBound
    while true {
      let text = SmallFile.text(labelLogPath) ?? ""
      if let label = LabelLog.label(afterKeys: keysSent, in: text) { return label }
      guard clock.now < deadline else {
        throw .failure("the app drew no frame after key \(keysSent) in \(Self.expectationBound)")
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// How long an `expect` waits for its label. The detector changes the
  /// label when a sweep runs after the grace delay: 1.05–1.11 s after a
  /// close on a quiet machine, later than a script's `wait 1s` while a
  /// build shares the cores (7 scripts of 60 read the old label in one full
  /// run of `make test`). A label that never comes fails after this long.
  static let expectationBound = Duration.seconds(10)

  public func readLabel(until isMet: (String) -> Bool) throws(StepDriverError) -> String {
    let clock = ContinuousClock()
    let deadline = clock.now + Self.expectationBound
    var label = try readLabel()
    while !isMet(label), clock.now < deadline {
      // Past the step's own frame: from now on, what the screen shows.
      readsScreen = true
      Thread.sleep(forTimeInterval: 0.05)
      label = try screenLabel()
    }
    return label
  }

  /// Quits the app with `q` and waits for it to exit; returns its exit status.
  @discardableResult
  public func quit() -> Int32? {
    try? session.sendKeys("q")
    return try? session.waitForExit(timeout: .seconds(5))
  }

  // MARK: Keys and screens

  /// Sends `keys` and lets the screen settle. A key that always changes the
  /// screen (opening or closing a scenario) is first waited for, up to
  /// ``expectationBound``: on a loaded machine a stable screen can be the
  /// one from before the key, and the next key (an action) then reached the
  /// catalogue instead of the screen (1 script of 60 in a full run).
  private func send(_ keys: [String], changesTheScreen: Bool = false) throws(StepDriverError) {
    let before = changesTheScreen ? try screen() : []
    for key in keys {
      do { try session.sendKeys(key) } catch { throw .failure("could not send \(key): \(error)") }
      keysSent += 1
    }
    if changesTheScreen {
      let clock = ContinuousClock()
      let deadline = clock.now + Self.expectationBound
      while try screen() == before, clock.now < deadline { Thread.sleep(forTimeInterval: 0.03) }
    }
    try settle()
  }

  private func screen() throws(StepDriverError) -> [String] {
    do { return try session.capture() } catch { throw .failure("could not read the screen: \(error)") }
  }

  /// Gives the app a moment to react (50 ms), then waits until two captures
  /// 30 ms apart agree (at most one second more).
  private func settle() throws(StepDriverError) {
    Thread.sleep(forTimeInterval: 0.05)
    var previous = try screen()
    for _ in 0..<33 {
      Thread.sleep(forTimeInterval: 0.03)
      let current = try screen()
      if current == previous { return }
      previous = current
    }
  }

  /// The name tmux's `send-keys` knows `key` by; `nil` for a resize or a mouse
  /// event, which are not key presses.
  nonisolated static func tmuxName(_ key: Key) -> String? {
    switch key {
    case .character(" "): "Space"
    case .character(let character): String(character)
    case .up: "Up"
    case .down: "Down"
    case .left: "Left"
    case .right: "Right"
    case .enter: "Enter"
    case .escape: "Escape"
    case .backspace: "BSpace"
    case .tab: "Tab"
    case .backTab: "BTab"
    case .pageUp: "PPage"
    case .pageDown: "NPage"
    case .home: "Home"
    case .end: "End"
    case .delete: "DC"
    case .function(let number): "F\(number)"
    case .control(let character): "C-\(character)"
    case .resize, .mouse: nil
    }
  }
}
