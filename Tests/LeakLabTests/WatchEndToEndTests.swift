import Foundation
import LeakLabTestSupport
import MemoryView
import TerminalAutomation
import Testing
import TextGrid

#if canImport(Glibc)
  import Glibc
#endif

/// The real `leaklab watch` in tmux on `WatchedServer`, a server of our own
/// whose requests are signals (SIGUSR1: one request; SIGUSR2: exit with
/// status 3), so the test decides when it grows.
@Suite(
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"),
  .memoryViewSupported)
struct WatchEndToEndTests {
  let server = builtExecutable(named: "WatchedServer")

  /// The count and change columns of `type`'s row, once it is on screen.
  static func columns(of type: String, in screen: [String]) -> (count: Int, change: String)? {
    guard let line = screen.first(where: { $0.contains("  \(type)  ") }) else { return nil }
    let fields = line.split(whereSeparator: { $0 == " " || $0 == "│" })
    guard fields.count > 2, let count = Int(fields[0]) else { return nil }
    return (count, String(fields[1]))
  }

  /// The pid the header names: ` WatchedServer (pid 4242) · running …`.
  static func pid(in screen: [String]) -> Int32? {
    guard let header = screen.first, let range = header.range(of: "(pid ") else { return nil }
    return Int32(header[range.upperBound...].prefix { $0.isNumber })
  }

  /// Sends `pid` one request and waits until its output says it served request `number`:
  /// signals sent at once would merge into one.
  static func request(_ pid: Int32, number: Int, log: String) throws {
    kill(pid, SIGUSR1)
    let deadline = ContinuousClock.now + .seconds(10)
    while SmallFile.text(log)?.contains("served \(number)\n") != true {
      guard ContinuousClock.now < deadline else {
        Issue.record("WatchedServer did not serve request \(number)")
        return
      }
      usleep(10_000)
    }
  }

  @Test func aServerGrowsOnScreenTheMarkResetsItsChangeEnterShowsItsGlobalAndItsLeaksAtExitStay() throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-watch-test-\(UUID().uuidString).log"
    ).path
    defer { unlink(log) }
    let session = try TmuxSession(
      command: [
        LeakLabBinary.path, "watch", "--period", "1", "--program-output", log, "--", server, "--requests",
        "5",
      ],
      size: Size(width: 80, height: 24))
    defer { session.kill() }
    var screen = try session.waitUntil("the first census", timeout: .seconds(30)) {
      Self.columns(of: "SessionRecord", in: $0)?.count == 5
    }
    let pid = try #require(Self.pid(in: screen))
    // The first snapshot may have caught the server starting up: the mark is set where the test starts.
    try session.sendKeys("m")
    try session.waitUntil("the change reset by the mark") {
      Self.columns(of: "SessionRecord", in: $0).map { $0.count == 5 && $0.change == "0" } == true
    }
    for number in 6...8 { try Self.request(pid, number: number, log: log) }
    screen = try session.waitUntil("three more sessions", timeout: .seconds(30)) {
      Self.columns(of: "SessionRecord", in: $0).map { $0.count == 8 && $0.change == "+3" } == true
    }
    #expect(screen.contains { $0.contains("8 × Connection ⇄ RequestHandler") })
    try session.sendKeys("m")
    try session.waitUntil("the change reset by the second mark") {
      Self.columns(of: "SessionRecord", in: $0).map { $0.count == 8 && $0.change == "0" } == true
    }
    try session.sendKeys("/")
    try session.type("SessionRecord")
    try session.sendKeys("Enter", "Enter")
    try session.waitFor(text: "held from root: global sessionLog in WatchedServer", timeout: .seconds(30))
    try session.waitFor(text: "1 of 1 strong reference found")
    try session.sendKeys("Escape", "Tab", "Enter")
    try session.waitFor(
      text: "Connection → handler: RequestHandler → connection: Connection (cycle)", timeout: .seconds(30))
    try session.sendKeys("Escape", "BTab")
    // The server still serves: one more request shows up against the mark.
    try Self.request(pid, number: 9, log: log)
    try session.waitUntil("a request after the mark", timeout: .seconds(30)) {
      Self.columns(of: "SessionRecord", in: $0).map { $0.count == 9 && $0.change == "+1" } == true
    }
    kill(pid, SIGUSR2)
    // Held at its exit, read once more: the leaks at exit.
    // The whole frame of that read: a capture may fall while its rows are drawn.
    try session.waitUntil("the leaks at exit", timeout: .seconds(30)) { screen in
      ["exited with status 3: read at its exit", "Leaks at exit · 1 kind", "9 × Connection ⇄ RequestHandler"]
        .allSatisfy { text in screen.contains { $0.contains(text) } }
    }
    try session.sendKeys("q")
    #expect(try session.waitForExit() == 0)
  }

  /// Starts WatchedServer with `arguments`, no signal blocked, its output
  /// into `log` (nothing inherited: a test's pipes must close when it ends).
  func startServer(_ arguments: [String], log: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = ([server] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let status = posix_spawn(&pid, server, &actions, &attributes, argv, environ)
    try #require(status == 0, "cannot start WatchedServer: \(String(cString: strerror(status)))")
    return pid
  }

  @Test func aProcessGivenWithPidRunsOnAfterQ() throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-watch-pid-\(UUID().uuidString).log"
    ).path
    defer { unlink(log) }
    let pid = try startServer(["--requests", "2"], log: log)
    defer {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    let session = try TmuxSession(
      command: [LeakLabBinary.path, "watch", "--period", "1", "--pid", "\(pid)"],
      size: Size(width: 80, height: 24))
    defer { session.kill() }
    try session.waitUntil("the census of the running server", timeout: .seconds(30)) {
      Self.columns(of: "SessionRecord", in: $0)?.count == 2
    }
    try session.sendKeys("q")
    #expect(try session.waitForExit() == 0)
    // Still serving after the app has gone.
    try Self.request(pid, number: 3, log: log)
    var status: Int32 = 0
    #expect(waitpid(pid, &status, WNOHANG) == 0)
  }

  @Test func aProgramThatIsNotSwiftIsAOneLineErrorInTheApp() throws {
    let session = try TmuxSession(
      command: [LeakLabBinary.path, "watch", "--period", "1", "--", "/bin/sleep", "60"],
      size: Size(width: 80, height: 24))
    defer { session.kill() }
    try session.waitFor(text: "is not a Swift program", timeout: .seconds(30))
    let watcher = try #require(try session.programProcessID())
    // The program's output went to a file leaklab chose; sleep wrote nothing to it.
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-watch-sleep-\(watcher).log")
    #expect(FileManager.default.fileExists(atPath: log.path))
    try session.sendKeys("q")
    #expect(try session.waitForExit() == 0)
    #expect(!FileManager.default.fileExists(atPath: log.path), "an empty log is removed when the app ends")
  }

  @Test func aProcessThatDoesNotExistIsOneLineAndStatus2() throws {
    let run = try LeakLabBinary.run(["watch", "--pid", "2147483000"])
    #expect(run.status == 2)
    #expect(run.error == "leaklab: no process with id 2147483000\n")
  }
}

// MARK: --stacks

extension WatchEndToEndTests {
  /// The line of WatchedServer's source that makes a request's `Connection`.
  static func connectionLine() throws -> Int {
    let source = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Tools/LeakFixtures/WatchedServer/main.swift")
    let lines = try String(contentsOf: source, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    return try #require(lines.firstIndex { $0.contains("= Connection(number: number)") }) + 1
  }

  /// The text of `screen` with the boxes' borders taken out and its lines
  /// joined: what the explain view says, however it wrapped.
  static func text(of screen: [String]) -> String {
    screen.map { line in
      line.split(whereSeparator: { "│┃║".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: " ")
    }.joined(separator: " ")
  }

  @Test func withStacksTheLeakedConnectionNamesTheLineThatAllocatedIt() throws {
    let line = try Self.connectionLine()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-watch-stacks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("server.log").path
    // In a folder of its own: `r` writes its report into the current directory.
    let session = try TmuxSession(
      command: [
        "/bin/sh", "-c", #"cd "$0" && exec "$@""#, directory.path, LeakLabBinary.path, "watch", "--stacks",
        "--period", "1", "--program-output", log, "--", server, "--requests", "3",
      ],
      size: Size(width: 80, height: 24))
    defer { session.kill() }
    try session.waitUntil("the first census", timeout: .seconds(30)) {
      Self.columns(of: "Connection", in: $0)?.count == 3
    }
    try session.sendKeys("/")
    try session.type("Connection")
    try session.sendKeys("Enter")
    // The instances pane: where the selected type's instances were made.
    try session.waitFor(text: "allocated in serve(_:) at", timeout: .seconds(30))
    try session.sendKeys("r")
    let screen = try session.waitFor(text: "Report: ./leaklab-watch-WatchedServer-")
    let notice = try #require(screen.first { $0.contains("Report: ./") })
    let name = try #require(notice.split(separator: "/").last?.split(separator: " ").first)
    let data = try Data(contentsOf: directory.appendingPathComponent(String(name)))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let types = try #require(json["types"] as? [[String: Any]])
    let connection = try #require(types.first { $0["name"] as? String == "Connection" })
    let allocation = try #require(connection["allocation"] as? [String: Any], "\(connection)")
    let frames = try #require(allocation["frames"] as? [[String: Any]])
    let frame = try #require(frames[try #require(allocation["programFrame"] as? Int)])
    #expect(frame["function"] as? String == "serve(_:)")
    #expect((frame["file"] as? String)?.hasSuffix("Tools/LeakFixtures/WatchedServer/main.swift") == true)
    #expect(frame["line"] as? Int == line)
    #expect(connection["allocatedThere"] as? Int == 3)
    // Enter: why the newest is alive, and where it was allocated.
    try session.sendKeys("Enter")
    let explained = try session.waitUntil("the explain view with the site", timeout: .seconds(30)) {
      Self.text(of: $0).contains(", called from main at ")
    }
    let text = Self.text(of: explained)
    #expect(text.contains("Why is it alive?"))
    #expect(text.contains("WatchedServer/main.swift:\(line), called from main at "), "\(text)")
    try session.sendKeys("q")
    #expect(try session.waitForExit() == 0)
  }

  @Test func stacksWithPidIsOneLineAndStatus2() throws {
    let run = try LeakLabBinary.run(["watch", "--stacks", "--pid", "1"])
    #expect(run.status == 2)
    #expect(
      run.error.hasPrefix("leaklab: --stacks needs a program leaklab starts, not --pid"), "\(run.error)")
    #expect(run.error.filter { $0 == "\n" }.count == 1)
  }
}
