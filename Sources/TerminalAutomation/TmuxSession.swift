import Foundation
import MemoryView
import TextGrid

/// A program running in a pseudo-terminal of a private tmux server: type keys,
/// read the screen, wait for text, learn how the program exited.
///
/// End-to-end tests and `leaklab run --terminal` drive the real terminal app
/// this way. Each session has its own server socket, so sessions never see
/// each other; ``kill()`` (or `deinit`) stops the server and deletes the socket.
/// The program runs under a small `sh` that records its exit status and then
/// stays, like a shell prompt would: after the program exits, the pane shows
/// the terminal exactly as the program left it (`#{alternate_on}`, `#{cursor_flag}`).
/// (tmux's own `#{pane_dead_status}` is not used: tmux 3.3 sometimes never records it.)
///
/// ```swift
/// let session = try TmuxSession(command: [appPath], size: Size(width: 80, height: 24))
/// defer { session.kill() }
/// try session.waitFor(text: "No issues detected")
/// try session.sendKeys("Down", "Enter")
/// let screen = try session.waitFor(text: "Leaked:", timeout: .seconds(5))
/// try session.sendKeys("q")
/// let status = try session.waitForExit()
/// ```
public final class TmuxSession: Sendable {
  /// Why a tmux command failed or a wait ran out.
  public enum Failure: Error, CustomStringConvertible {
    /// A tmux command exited with a non-zero status.
    case commandFailed(arguments: [String], status: Int32, message: String)
    /// tmux could not be started.
    case launchFailed(String)
    /// The screen did not show what was awaited in time; `screen` is the last capture.
    case timedOut(waitingFor: String, screen: [String])
    /// The screen stopped showing what had to hold; `screen` is the capture where it broke.
    case stoppedHolding(String, screen: [String])

    public var description: String {
      switch self {
      case .commandFailed(let arguments, let status, let message):
        "tmux \(arguments.joined(separator: " ")) exited with \(status): \(message)"
      case .launchFailed(let message):
        message
      case .timedOut(let awaited, let screen):
        "timed out waiting for \(awaited); the screen shows:\n" + screen.joined(separator: "\n")
      case .stoppedHolding(let claim, let screen):
        "the screen stopped showing \(claim); it shows:\n" + screen.joined(separator: "\n")
      }
    }
  }

  /// The private server's socket.
  public let socketPath: String
  private let statusPath: String
  private let environment: [String: String]
  private static let target = "leaklab"

  /// Whether a `tmux` executable is on the `PATH`.
  public static var isAvailable: Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/tmux", X_OK) == 0 }
  }

  /// Starts `command` (program and arguments) in a new tmux server with a window of `size`.
  ///
  /// The program gets `LANG=C.UTF-8`, `TERM` from tmux (`tmux-256color`), no
  /// `NO_COLOR`, and the variables in `environment`. Ctrl-C and Ctrl-\ reach
  /// the program only; the shell around it survives them to record the status.
  public init(
    command: [String], size: Size = Size(width: 80, height: 24), environment: [String: String] = [:]
  ) throws(Failure) {
    socketPath = "/tmp/leaklab-tmux-\(getpid())-\(UUID().uuidString.prefix(8)).sock"
    statusPath = socketPath + ".status"
    var inherited = ProcessInfo.processInfo.environment
    for name in ["NO_COLOR", "TMUX", "TMUX_PANE", "LC_ALL", "LC_CTYPE"] { inherited[name] = nil }
    inherited["LANG"] = "C.UTF-8"
    self.environment = inherited
    var arguments = [
      "start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
      "set-option", "-s", "set-clipboard", "on", ";",
      "new-session", "-d", "-s", Self.target, "-x", "\(size.width)", "-y", "\(size.height)",
      "-e", "LANG=C.UTF-8",
    ]
    for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
      arguments += ["-e", "\(name)=\(value)"]
    }
    let script = #"trap : INT QUIT; "$@"; echo $? > "$0"; exec sleep 2147483647"#
    arguments += ["sh", "-c", script, statusPath] + command
    try tmux(arguments)
  }

  deinit {
    kill()
  }

  /// Sends keys by tmux name: `"q"`, `"Enter"`, `"Escape"`, `"Up"`, `"C-c"`, `"F5"`.
  public func sendKeys(_ keys: String...) throws(Failure) {
    try tmux(["send-keys", "-t", Self.target] + keys)
  }

  /// Sends raw bytes, each as two hex digits (`["1b", "5b", "4d", …]`): what a
  /// terminal would send for input tmux has no key name for, such as a mouse report.
  public func sendBytes(_ hexBytes: [String]) throws(Failure) {
    try tmux(["send-keys", "-t", Self.target, "-H"] + hexBytes)
  }

  /// Types `text` literally, character by character.
  public func type(_ text: String) throws(Failure) {
    try tmux(["send-keys", "-t", Self.target, "-l", text])
  }

  /// The visible screen, one string per row, trailing spaces trimmed.
  ///
  /// - Parameters:
  ///   - escapes: include the escape sequences for colours and attributes.
  ///   - history: start with the lines that scrolled off the top.
  public func capture(escapes: Bool = false, history: Bool = false) throws(Failure) -> [String] {
    let output = try tmux(
      ["capture-pane", "-p", "-t", Self.target] + (escapes ? ["-e"] : []) + (history ? ["-S", "-"] : []))
    var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// What the program last put on the clipboard (OSC 52; tmux keeps it as its
  /// newest paste buffer), or `nil` when there is none.
  public func clipboard() -> String? {
    try? tmux(["show-buffer"])
  }

  /// Changes the window's size; the program receives SIGWINCH.
  public func resize(to size: Size) throws(Failure) {
    try tmux(["resize-window", "-t", Self.target, "-x", "\(size.width)", "-y", "\(size.height)"])
  }

  /// Expands a tmux format for the pane, e.g. `"#{alternate_on}"`, `"#{pane_pid}"`.
  public func query(_ format: String) throws(Failure) -> String {
    try tmux(["display-message", "-p", "-t", Self.target, format])
      .trimmingCharacters(in: .newlines)
  }

  /// The process id of the program in the pane (a child of the pane's shell), or `nil` once it exited.
  public func programProcessID() throws(Failure) -> Int32? {
    let shell = try query("#{pane_pid}")
    let children =
      SmallFile.text("/proc/\(shell)/task/\(shell)/children") ?? ""
    return children.split(separator: " ").first.flatMap { Int32($0) }
  }

  /// The program's exit status once it has exited (128 + signal when a signal ended it), else `nil`.
  public func exitStatus() -> Int32? {
    guard let text = SmallFile.text(statusPath) else { return nil }
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Polls the screen until `condition` holds; returns that screen.
  ///
  /// This is real-time pty driving, the one place where polling is right:
  /// the screen is captured every 10 ms until the condition holds or `timeout` passes.
  @discardableResult
  public func waitUntil(
    _ description: String, timeout: Duration = .seconds(10), _ condition: ([String]) -> Bool
  ) throws(Failure) -> [String] {
    let deadline = ContinuousClock.now + timeout
    while true {
      let screen = try capture()
      if condition(screen) { return screen }
      if ContinuousClock.now >= deadline { throw .timedOut(waitingFor: description, screen: screen) }
      usleep(10_000)
    }
  }

  /// Polls the screen until some row contains `text`; returns that screen.
  @discardableResult
  public func waitFor(text: String, timeout: Duration = .seconds(10)) throws(Failure) -> [String] {
    try waitUntil("\"\(text)\"", timeout: timeout) { screen in screen.contains { $0.contains(text) } }
  }

  /// Polls the screen for `duration` and throws at the first capture where `condition` fails.
  ///
  /// For a claim about real time ("the label stays clean past the grace
  /// delay"): unlike a sleep, every capture in the window is checked, every 10 ms.
  /// Returns the last screen.
  @discardableResult
  public func requireThroughout(
    _ description: String, for duration: Duration, _ condition: ([String]) -> Bool
  ) throws(Failure) -> [String] {
    let deadline = ContinuousClock.now + duration
    while true {
      let screen = try capture()
      guard condition(screen) else { throw .stoppedHolding(description, screen: screen) }
      if ContinuousClock.now >= deadline { return screen }
      usleep(10_000)
    }
  }

  /// Polls until the program has exited; returns its exit status.
  public func waitForExit(timeout: Duration = .seconds(10)) throws(Failure) -> Int32 {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let status = exitStatus() { return status }
      if ContinuousClock.now >= deadline {
        throw .timedOut(waitingFor: "the program to exit", screen: try capture())
      }
      usleep(10_000)
    }
  }

  /// Stops the server (and the program, if still running) and deletes the socket. Safe to call twice.
  public func kill() {
    _ = try? ChildProcess.run(
      ["tmux", "-S", socketPath, "kill-server"], environment: environment, timeout: .seconds(5))
    unlink(socketPath)
    unlink(statusPath)
  }

  @discardableResult
  private func tmux(_ arguments: [String]) throws(Failure) -> String {
    let result: ChildProcess.Result
    do {
      result = try ChildProcess.run(
        ["tmux", "-u", "-S", socketPath, "-f", "/dev/null"] + arguments, environment: environment)
    } catch {
      throw .launchFailed(error.description)
    }
    guard result.status == 0 else {
      throw .commandFailed(arguments: arguments, status: result.status, message: result.standardError)
    }
    return result.standardOutput
  }
}
