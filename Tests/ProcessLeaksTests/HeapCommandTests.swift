import Foundation
import LeakLabTestSupport
import ProcessLeaks
import Testing

/// `leaklab heap` as a user runs it, on a program that keeps something of
/// every request reachable (GrowingHeap): the census against the program's
/// own count, the diff naming the type, its exact growth and the global that
/// keeps it, `--pid` leaving the process running, timelines, errors.
@Suite(.memoryViewSupported) struct HeapCommandTests {
  /// A growth pattern of the fixture: its class and the global that keeps it.
  struct Pattern: Sendable, CustomTestStringConvertible {
    var name: String
    var type: String
    var global: String
    /// What the fixed form keeps after any number of requests.
    var fixedKeeps: Int

    var qualifiedType: String { "GrowingHeap.\(type)" }
    var testDescription: String { name }
  }

  static let patterns = [
    Pattern(name: "audit", type: "AuditRecord", global: "auditTrail", fixedKeeps: 10),
    Pattern(name: "cache", type: "CachedResponse", global: "responseCache", fixedKeeps: 10),
    Pattern(name: "observers", type: "RequestSession", global: "eventHub", fixedKeeps: 0),
  ]

  /// `leaklab heap --json -o FILE ARGUMENTS`: the status, the document and what the command printed.
  static func census(_ arguments: [String]) throws -> (
    status: Int32, document: CensusDocument, run: LeaksCommand.Run
  ) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("heap-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try LeaksCommand.run(["heap", "--json", "-o", file.path] + arguments)
    let document = try CensusDocument.decode(try Data(contentsOf: file))
    return (run.status, document, run)
  }

  // MARK: At exit

  @Test(arguments: patterns)
  func theCensusAtExitCountsWhatTheProgramCountsItself(_ pattern: Pattern) throws {
    for (form, kept) in [("leaky", 37), ("fixed", pattern.fixedKeeps)] {
      let (status, document, run) = try Self.census(
        ["--", LeaksCommand.fixture("GrowingHeap"), pattern.name, form, "--requests", "37"])
      #expect(status == 0)
      #expect(run.output == "live \(pattern.type): \(kept)\n")
      let census = try document.census
      #expect(census.count(ofType: pattern.qualifiedType) == kept, "\(form)")
      let entries = census.entries(qualifiedName: pattern.qualifiedType)
      #expect(entries.count == (kept > 0 ? 1 : 0))
      if let entry = entries.first {
        #expect(entry.isProgramType)
        #expect(entry.module == "GrowingHeap")
        #expect(Array(entry.instances).count == kept)
      }
      #expect(document.process.exitStatus == 0)
      #expect(document.stoppedMilliseconds > 0)
    }
  }

  @Test func theTextReportSaysHowLongTheProcessWasStoppedAndListsTypesByBytes() throws {
    let run = try LeaksCommand.run(
      [
        "heap", "--top", "40", "--", LeaksCommand.fixture("GrowingHeap"), "audit", "leaky", "--requests",
        "30",
      ])
    #expect(run.status == 0)
    let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Standard output is the report's: the program's own line goes to standard error.
    #expect(run.error == "live AuditRecord: 30\n")
    #expect(lines[0].contains("exited with status 0; stopped for "))
    #expect(lines[0].hasSuffix(" ms"))
    #expect(
      lines.contains {
        $0.hasPrefix("   30") && $0.contains("AuditRecord") && $0.hasSuffix("GrowingHeap (program)")
      })
    let byteColumn = lines.dropFirst(4).compactMap { line -> Int? in
      let cells = line.split(separator: " ", omittingEmptySubsequences: true)
      guard cells.count >= 3 else { return nil }
      return Self.bytes(cells[1], unit: cells[2])
    }
    #expect(byteColumn.count >= 5)
    #expect(byteColumn == byteColumn.sorted(by: >))
  }

  /// `824 B`, `1.5 KiB` in bytes (rounded as shown).
  static func bytes(_ number: Substring, unit: Substring) -> Int? {
    guard let value = Double(number) else { return nil }
    switch unit {
    case "B": return Int(value)
    case "KiB": return Int(value * 1024)
    case "MiB": return Int(value * 1_048_576)
    default: return nil
    }
  }

  // MARK: A running process, before and after

  @Test(arguments: patterns)
  func theDiffNamesTheGrownTypeItsExactGrowthAndAPathThroughItsGlobal(_ pattern: Pattern) throws {
    let fixture = try ServingFixture([pattern.name, "leaky"])
    try fixture.handle(50)
    let before = try Self.census(["--pid", "\(fixture.pid)"])
    #expect(before.status == 0)
    #expect(try before.document.census.count(ofType: pattern.qualifiedType) == fixture.liveCount)

    try fixture.handle(200)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("heap-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try before.document.encoded().write(to: file)
    let after = try Self.census(["--pid", "\(fixture.pid)", "--diff-from", file.path])
    #expect(after.status == 1)
    #expect(try after.document.census.count(ofType: pattern.qualifiedType) == 250)
    #expect(fixture.liveCount == 250)
    let diff = try #require(after.document.diff)
    let grown = try #require(diff.grown.first { $0.key == "object \(pattern.qualifiedType)" })
    #expect(grown.growth == 200)
    #expect(grown.newInstances == 200)
    #expect(grown.oldCount == 50 && grown.newCount == 250)
    let path = try #require(grown.path)
    #expect(path.first == "global \(pattern.global) in GrowingHeap", "\(path)")
    #expect(path.last?.hasSuffix(": \(pattern.type)") == true, "\(path)")
    #expect(grown.pathRoot == "global")
    // Where to look: the global expected alive, the new instance expected gone, every reference between suspect.
    let expected = grown.pathExpected ?? []
    #expect(expected.first == "alive" && expected.last == "gone", "\(expected)")
    #expect(grown.pathSuspects == Array(1..<path.count))

    // Still running, still answering.
    #expect(try fixture.handle(1) == 251)
    #expect(try fixture.end() == 0)
  }

  @Test(arguments: patterns)
  func theFixedFormShowsNoGrowthOfItsOwnTypes(_ pattern: Pattern) throws {
    let fixture = try ServingFixture([pattern.name, "fixed"])
    try fixture.handle(50)
    let before = try Self.census(["--pid", "\(fixture.pid)"])
    try fixture.handle(200)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("heap-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try before.document.encoded().write(to: file)
    let after = try Self.census([
      "--pid", "\(fixture.pid)", "--diff-from", file.path, "--gate", "GrowingHeap.*",
    ])
    #expect(after.status == 0)
    let diff = try #require(after.document.diff)
    #expect(!diff.grown.contains { $0.programType }, "\(diff.grown.map(\.name))")
    #expect(try after.document.census.count(ofType: pattern.qualifiedType) == pattern.fixedKeeps)
    #expect(fixture.liveCount == pattern.fixedKeeps)
    #expect(try fixture.end() == 0)
  }

  @Test func theTextDiffShowsTheGrowthAndThePathAndTheThresholdDecidesTheStatus() throws {
    let fixture = try ServingFixture(["audit", "leaky"])
    try fixture.handle(5)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("heap-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let before = try LeaksCommand.run(["heap", "--pid", "\(fixture.pid)", "--json", "-o", file.path])
    #expect(before.status == 0)
    #expect(before.output.isEmpty)
    try fixture.handle(20)
    let text = try LeaksCommand.run(
      [
        "heap", "--pid", "\(fixture.pid)", "--diff-from", file.path, "--gate", "AuditRecord", "--threshold",
        "19",
      ])
    #expect(text.status == 1)
    #expect(text.output.contains("       +20  AuditRecord  [GrowingHeap, program]  5 → 25, +"))
    #expect(text.output.contains("            global auditTrail in GrowingHeap → "))
    // The new instance shown is one of the 20: its index is one of theirs.
    let lookAt =
      /\ {12}look at: Array<AnyObject> storage → \[(\d+)\], between global auditTrail in GrowingHeap \(expected alive: a root\) and AuditRecord \(expected gone: its count grew by 20\)\n/
    let index = try #require(text.output.firstMatch(of: lookAt).flatMap { Int($0.1) }, "\(text.output)")
    #expect((5..<25).contains(index))
    #expect(
      text.output.contains("1 type matching --gate grew by more than 19 (--threshold): AuditRecord +20"))
    let higher = try LeaksCommand.run(
      [
        "heap", "--pid", "\(fixture.pid)", "--diff-from", file.path, "--gate", "AuditRecord", "--threshold",
        "20",
      ])
    #expect(higher.status == 0)
    #expect(higher.output.contains("No type matching --gate grew by more than 20"))
    #expect(try fixture.end() == 0)
  }

  @Test func censusesInARowMakeATimelinePerType() throws {
    let fixture = try ServingFixture(["audit", "leaky"])
    try fixture.handle(12)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("heap-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try LeaksCommand.run(
      [
        "heap", "--pid", "\(fixture.pid)", "--every", "0.05", "--count", "3", "--json", "-o", file.path,
        "--gate", "GrowingHeap.*",
      ])
    #expect(run.status == 0)
    let document = try JSONDecoder.iso8601.decode(TimelineDocument.self, from: Data(contentsOf: file))
    #expect(document.censuses.count == 3)
    #expect(document.censuses.allSatisfy { $0.stoppedMilliseconds > 0 })
    let records = try #require(document.series.first { $0.key == "object GrowingHeap.AuditRecord" })
    #expect(records.counts == [12, 12, 12])
    #expect(records.growth == 0)
    #expect(try fixture.handle(1) == 13)
    #expect(try fixture.end() == 0)
  }

  @Test func aProgramThatFailsKeepsItsOwnExitStatusAfterItsCensus() throws {
    let run = try LeaksCommand.run(["heap", "--", LeaksCommand.fixture("GrowingHeap"), "sideways"])
    #expect(run.status == 2)
    #expect(run.output.hasPrefix("leaklab heap: GrowingHeap (pid "))
    #expect(run.output.contains(") exited with status 2; stopped for "))
    #expect(run.error.hasPrefix("usage: GrowingHeap"))
  }

  // MARK: Errors: one line, status 2

  @Test(arguments: [
    (["heap"], "leaklab: give a program after -- or a process with --pid"),
    (["heap", "--pid", "999999999"], "leaklab: no process with id 999999999"),
    (["heap", "--every", "1", "--count", "3", "--", "/bin/true"], "leaklab: --every needs --pid"),
    (["heap", "--pid", "1", "--every", "1"], "leaklab: --every and --count go together"),
    (["heap", "--pid", "1", "--every", "1", "--count", "1"], "leaklab: --count needs 2 or more"),
    (
      ["heap", "--diff-from", "/no/such.json", "--", "/bin/true"],
      "leaklab: /no/such.json: cannot read the census file"
    ),
    (["heap", "--sort", "size", "--pid", "1"], "leaklab: The value 'size' is invalid for '--sort <sort>'"),
  ])
  func badInputIsOneLineAndStatusTwo(_ arguments: [String], _ message: String) throws {
    let run = try LeaksCommand.run(arguments)
    #expect(run.status == 2)
    #expect(run.error.hasPrefix(message), "\(run.error)")
    #expect(run.error.filter { $0 == "\n" }.count == 1)
  }

  @Test func aFileThatIsNoCensusIsRefusedInOneLine() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("heap-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(#"{"schema": 1, "objects": []}"#.utf8).write(to: file)
    let run = try LeaksCommand.run(["heap", "--diff-from", file.path, "--", "/bin/true"])
    #expect(run.status == 2)
    #expect(
      run.error == "leaklab: \(file.path): not a census written by leaklab heap --json (no \"process\")\n")
  }
}

extension JSONDecoder {
  static var iso8601: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
