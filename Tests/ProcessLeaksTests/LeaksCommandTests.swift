import Foundation
import LeakLabTestSupport
import ProcessLeaks
import Testing

/// `leaklab leaks` as a user runs it: the report, `--pid`, options, exit
/// statuses and one-line errors.
@Suite(.memoryViewSupported) struct LeaksCommandTests {
  /// The report with addresses replaced by `0x…`.
  static func withoutAddresses(_ text: String) -> String {
    text.replacing(/0x[0-9a-f]+/, with: "0x…").replacing(/\(pid \d+\)/, with: "(pid …)")
  }

  @Test func theReportShowsTheCycleAsATreeFromTheProgramsObjectWithFieldNames() throws {
    let run = try LeaksCommand.run(["leaks", "--", LeaksCommand.fixture("FeedCycle"), "leaky"])
    #expect(run.status == 1)
    let signature = "FeedService ⇄ LoadFeedUseCase (completion, service)"
    let id = LeakKind.id(of: signature)
    #expect(
      Self.withoutAddresses(run.output) == """
        leaklab leaks: FeedCycle (pid …) exited with status 0
        3 leaked objects, 168 bytes, 1 retain cycle
           1 × \(signature)  [\(id)]

        KIND \(id): 1 × \(signature), 3 blocks, 168 B
           pattern: a stored closure capturing its owner (catalogue closure-capture, lint rule stored-closure)
           look at: FeedService.completion, the reference to break (◀ suspect below); every block on the cycle is expected gone
        ROOT CYCLE: <FeedService 0x… 56 B>
           completion: closure in LoadFeedUseCase.start(leaky:) → captures <LoadFeedUseCase 0x… 40 B>   ◀ suspect
              service: CYCLE BACK TO <FeedService 0x… 56 B>
              items: <Array storage 0x… 72 B>

        """)
    // Standard output is the report's: the program's own lines go to standard error.
    #expect(run.error == "loaded 2 items (leaky)\n")
  }

  @Test func theJSONReportOnStandardOutputIsNotMixedWithTheProgramsOutput() throws {
    let run = try LeaksCommand.run(["leaks", "--json", "--", LeaksCommand.fixture("FeedCycle"), "leaky"])
    #expect(run.status == 1)
    let report = try JSONDecoder().decode(LeaksCommand.Report.self, from: Data(run.output.utf8))
    #expect(report.programTypes == ["FeedService", "LoadFeedUseCase"])
    #expect(run.error == "loaded 2 items (leaky)\n")
  }

  @Test func aBaselineFailsTheRunOnlyForKindsOfLeakItDoesNotHave() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "baseline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = LeaksCommand.fixture("FeedCycle")
    let leaky = directory.appendingPathComponent("leaky.json").path
    let fixed = directory.appendingPathComponent("fixed.json").path
    #expect(try LeaksCommand.run(["leaks", "--json", "-o", leaky, "--", feed, "leaky"]).status == 1)
    #expect(try LeaksCommand.run(["leaks", "--json", "-o", fixed, "--", feed, "fixed"]).status == 0)
    let signature = "FeedService ⇄ LoadFeedUseCase (completion, service)"
    let line = "1 × \(signature)  [\(LeakKind.id(of: signature))]"

    let persisted = try LeaksCommand.run(["leaks", "--baseline", leaky, "--", feed, "leaky"])
    #expect(persisted.status == 0)
    #expect(
      persisted.output.contains("Compared with \(leaky): 0 new, 0 gone, 1 persisted\n   persisted  \(line)\n")
    )

    let new = try LeaksCommand.run(["leaks", "--baseline", fixed, "--", feed, "leaky"])
    #expect(new.status == 1)
    #expect(
      new.output.contains("Compared with \(fixed): 1 new, 0 gone, 0 persisted\n   new        \(line)\n"))

    let gone = try LeaksCommand.run(["leaks", "--baseline", leaky, "--", feed, "fixed"])
    #expect(gone.status == 0)
    #expect(
      gone.output.contains("Compared with \(leaky): 0 new, 1 gone, 0 persisted\n   gone       \(line)\n"))
  }

  @Test func aRunningProcessIsStoppedReadAndLetGoUnchanged() throws {
    let target = Process()
    target.executableURL = URL(fileURLWithPath: LeaksCommand.fixture("FeedCycle"))
    target.arguments = ["leaky", "--wait"]
    let input = Pipe()
    let output = Pipe()
    target.standardInput = input
    target.standardOutput = output
    try target.run()
    // The fixture says "ready" once it has leaked, then waits for a line.
    var received = Data()
    while !received.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      received += chunk
    }
    #expect(String(decoding: received, as: UTF8.self) == "ready\n")

    let run = try LeaksCommand.run(["leaks", "--pid", "\(target.processIdentifier)"])
    #expect(run.status == 1)
    #expect(run.output.contains("(pid \(target.processIdentifier)) stopped and let go"))
    #expect(run.output.contains("1 retain cycle"))

    input.fileHandleForWriting.write(Data("go\n".utf8))
    let rest = output.fileHandleForReading.readDataToEndOfFile()
    target.waitUntilExit()
    #expect(target.terminationStatus == 0)
    #expect(String(decoding: rest, as: UTF8.self) == "loaded 2 items (leaky)\n")
  }

  @Test func aProgramThatFailsKeepsItsOwnExitStatus() throws {
    let run = try LeaksCommand.run(["leaks", "--", LeaksCommand.fixture("FeedCycle"), "sideways"])
    #expect(run.status == 2)
    #expect(run.output.contains("exited with status 2"))
    #expect(run.output.contains("0 leaked objects"))
    #expect(run.error == "usage: FeedCycle leaky|fixed [--wait]\n")
  }

  @Test func aProgramKilledByASignalIsReportedWithTheShellsStatus() throws {
    // SIGKILL: a test runner's children may inherit other signals blocked.
    let run = try LeaksCommand.run(["leaks", "--", "/bin/sh", "-c", "kill -KILL $$"])
    #expect(run.status == 128 + 9)
    #expect(run.error.hasPrefix("leaklab: /bin/sh killed by signal 9"))
    #expect(run.error.hasSuffix("before it could exit: no leak check\n"))
  }

  @Test func ignoredTypesAndSuppressionFilesLeaveLeaksOut() throws {
    let feed = LeaksCommand.fixture("FeedCycle")
    let ignored = try LeaksCommand.run(["leaks", "--ignore", "FeedService", "--", feed, "leaky"])
    #expect(ignored.status == 0)
    #expect(ignored.output.contains("0 leaked objects, 0 bytes, 0 retain cycles (3 suppressed)"))

    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaks-\(UUID().uuidString).supp")
    defer { try? FileManager.default.removeItem(at: file) }
    try "# the feed cache lives for the whole run\ntype FeedCycle.Feed*\n".write(
      to: file, atomically: true, encoding: .utf8)
    let filed = try LeaksCommand.run(["leaks", "--suppressions", file.path, "--", feed, "leaky"])
    #expect(filed.status == 0)
    #expect(
      filed.output.contains("FeedCycle.Feed*: 3 blocks, 168 B — the feed cache lives for the whole run"))
  }

  @Test func stillReachableInstancesAreListedWithTheirPathFromARoot() throws {
    let (status, report) = try LeaksCommand.json(
      [LeaksCommand.fixture("OperationCompletion"), "fixed"], options: ["--reachable", "ReportExporter"])
    #expect(status == 0)
    #expect(report.reachable.map(\.type) == ["ReportExporter"])
    #expect(
      report.reachable.first?.path.first == "root: global exporter in OperationCompletion")
  }

  // MARK: Errors: one line, status 2

  @Test(arguments: [
    (["leaks", "--", "/bin/true"], "leaklab: /usr/bin/true is not a Swift program"),
    (
      ["leaks", "--", "/no/such/program"],
      "leaklab: cannot run /no/such/program: no such file"
    ),
    (["leaks", "--", "/tmp"], "leaklab: cannot run /tmp: it is a directory"),
    (["leaks", "--", "/etc/passwd"], "leaklab: cannot run /etc/passwd: not executable"),
    (
      ["leaks", "--", "no-such-program-anywhere"],
      "leaklab: cannot run no-such-program-anywhere: not found in PATH"
    ),
    (["leaks", "--pid", "999999999"], "leaklab: no process with id 999999999"),
    (["leaks"], "leaklab: give a program after -- or a process with --pid"),
    (["leaks", "--pid", "1", "--", "/bin/true"], "leaklab: give either a program or --pid, not both"),
    (["leaks", "--suppressions", "/no/such.supp", "--", "/bin/true"], "leaklab: /no/such.supp: cannot read"),
    (
      ["leaks", "--baseline", "/no/such.json", "--", "/bin/true"],
      "leaklab: /no/such.json: cannot read the baseline"
    ),
    (
      ["leaks", "--baseline", "/etc/passwd", "--", "/bin/true"],
      "leaklab: /etc/passwd: not a report of `leaklab leaks --json`"
    ),
    (["leaks", "--threshold", "2", "--", "/bin/true"], "leaklab: --threshold needs --baseline"),
  ])
  func badInputIsOneLineAndStatusTwo(_ arguments: [String], _ message: String) throws {
    let run = try LeaksCommand.run(arguments)
    #expect(run.status == 2)
    #expect(run.error.hasPrefix(message), "\(run.error)")
    #expect(run.error.filter { $0 == "\n" }.count == 1)
  }

  @Test func aProcessSomeoneElseTracesCannotBeAttachedTo() throws {
    // `leaklab leaks -- PROGRAM` traces the program; a second leaklab may not.
    let first = Process()
    first.executableURL = URL(fileURLWithPath: LeaksCommand.leaklab)
    first.arguments = ["leaks", "--", LeaksCommand.fixture("FeedCycle"), "leaky", "--wait"]
    let input = Pipe()
    let output = Pipe()
    first.standardInput = input
    // The program's own output comes through leaklab's standard error.
    first.standardOutput = FileHandle.nullDevice
    first.standardError = output
    try first.run()
    var received = Data()
    while !received.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      received += chunk
    }
    let traced = try #require(Self.childProcess(of: first.processIdentifier))
    let second = try LeaksCommand.run(["leaks", "--pid", "\(traced)"])
    input.fileHandleForWriting.write(Data("go\n".utf8))
    _ = output.fileHandleForReading.readDataToEndOfFile()
    first.waitUntilExit()
    #expect(second.status == 2)
    #expect(second.error.hasPrefix("leaklab: ptrace is not permitted here (Operation not permitted)"))
    #expect(first.terminationStatus == 1)
  }

  /// The first child of process `parent`, from /proc.
  static func childProcess(of parent: Int32) -> Int32? {
    // Read to the end: /proc files report a size of 0.
    let file = FileHandle(forReadingAtPath: "/proc/\(parent)/task/\(parent)/children")
    let text = (try? file?.readToEnd()).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    return text?.split(separator: " ").first.flatMap { Int32($0) }
  }
}

extension LeaksCommandTests {
  @Test func aProgramOnAnotherSwiftRuntimeIsRefusedInOneLine() throws {
    // A copy of the runtime with another build id, loaded by the program only
    // (env sets LD_LIBRARY_PATH for it; leaklab keeps its own runtime).
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "runtime-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let original = try #require(Self.loadedRuntimePath())
    var bytes = try Data(contentsOf: URL(fileURLWithPath: original))
    // The GNU build id note: namesz 4, descsz 20, type 3, "GNU\0", then the id.
    let header: [UInt8] = [4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0] + Array("GNU".utf8) + [0]
    let note = try #require(bytes.firstRange(of: Data(header)))
    bytes[note.upperBound] ^= 0xFF
    try bytes.write(to: directory.appendingPathComponent("libswiftCore.so"))

    let run = try LeaksCommand.run([
      "leaks", "--", "/usr/bin/env", "LD_LIBRARY_PATH=\(directory.path)", LeaksCommand.fixture("FeedCycle"),
      "fixed",
    ])
    #expect(run.status == 2)
    #expect(
      run.error.hasPrefix(
        "loaded 2 items (fixed)\nleaklab: the program uses a different Swift runtime (\(directory.path)/libswiftCore.so)"
      ))
  }

  /// The path of the Swift runtime this test process runs with.
  static func loadedRuntimePath() -> String? {
    let maps = FileHandle(forReadingAtPath: "/proc/self/maps").flatMap { try? $0.readToEnd() }
    let text = maps.map { String(decoding: $0, as: UTF8.self) } ?? ""
    return text.split(separator: "\n").compactMap { line in
      line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
    }.first { $0.hasSuffix("/libswiftCore.so") }
  }
}
