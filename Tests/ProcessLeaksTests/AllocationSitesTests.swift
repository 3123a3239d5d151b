import Foundation
import LeakLabTestSupport
import Testing

/// `leaklab leaks --stacks` on the AllocationSites fixture, whose leaked
/// objects are made at lines marked `// site: NAME`: each reported site is
/// that line.
@Suite(.memoryViewSupported) struct AllocationSitesTests {
  /// The fixture's source, beside the tests in the repository.
  static let source = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tools/LeakFixtures/AllocationSites/main.swift")

  /// The line of each `// site: NAME` mark.
  static func markedLines() throws -> [String: Int] {
    let text = try String(contentsOf: source, encoding: .utf8)
    var lines: [String: Int] = [:]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard let mark = line.firstRange(of: "// site: ") else { continue }
      lines[String(line[mark.upperBound...])] = number + 1
    }
    return lines
  }

  /// The allocation of the one leaked object of `type`.
  static func allocation(of type: String, in report: LeaksCommand.Report) throws
    -> LeaksCommand.Report.Allocation
  {
    let objects = report.objects.filter { $0.type == type }
    try #require(objects.count == 1, "\(objects.count) leaked \(type)")
    return try #require(objects[0].allocation, "\(type) has no allocation site")
  }

  @Test func eachLeakedObjectIsPlacedAtTheLineThatMadeIt() throws {
    let marks = try Self.markedLines()
    let (status, report) = try LeaksCommand.json(
      [LeaksCommand.fixture("AllocationSites"), "leaky"], options: ["--stacks"])
    #expect(status == 1)
    let expected: [(type: String, mark: String)] = [
      ("Session", "initializer"), ("Cache", "factory"), ("Listener", "listener"),
      ("closure context", "closure"), ("Job", "task"),
    ]
    for (type, mark) in expected {
      let site = try #require(try Self.allocation(of: type, in: report).site, "\(type): no program frame")
      #expect(site.file == Self.source.path, "\(type)")
      #expect(site.line == marks[mark], "\(type): expected the line marked \(mark)")
    }
  }

  @Test func aFactorysSiteNamesItsCallerToo() throws {
    let marks = try Self.markedLines()
    let (_, report) = try LeaksCommand.json(
      [LeaksCommand.fixture("AllocationSites"), "leaky"], options: ["--stacks"])
    let allocation = try Self.allocation(of: "Cache", in: report)
    #expect(allocation.site?.function == "makeCache()")
    let callerLine = try #require(marks["factory caller"])
    #expect(allocation.summary.hasSuffix("called from leakCache(leaky:) at \(Self.relative):\(callerLine)"))
  }

  /// The fixture's path as the summary prints it (relative to the test's current directory when inside it).
  static var relative: String {
    let directory = FileManager.default.currentDirectoryPath + "/"
    return source.path.hasPrefix(directory) ? String(source.path.dropFirst(directory.count)) : source.path
  }

  @Test func theRecorderChangesNothingThatLeaks() throws {
    for mode in ["leaky", "fixed"] {
      let (plainStatus, plain) = try LeaksCommand.json([LeaksCommand.fixture("AllocationSites"), mode])
      let (recordedStatus, recorded) = try LeaksCommand.json(
        [LeaksCommand.fixture("AllocationSites"), mode], options: ["--stacks"])
      #expect(recordedStatus == plainStatus, "\(mode)")
      #expect(recorded.objects.map(\.type).sorted() == plain.objects.map(\.type).sorted(), "\(mode)")
      #expect(recorded.summary.retainCycles == plain.summary.retainCycles, "\(mode)")
    }
  }

  @Test func aProgramWithoutDebugInformationStillGetsFunctionNames() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sites-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let stripped = directory.appendingPathComponent("AllocationSites").path
    let strip = try LeaksCommand.run(
      ["--strip-debug", LeaksCommand.fixture("AllocationSites"), stripped], executable: "/usr/bin/objcopy")
    try #require(strip.status == 0, "objcopy: \(strip.error)")
    let (_, report) = try LeaksCommand.json([stripped, "leaky"], options: ["--stacks"])
    let site = try #require(try Self.allocation(of: "Session", in: report).site)
    #expect(site.function == "leakSession(leaky:)")
    #expect(site.file == nil)
    #expect(site.line == nil)
  }
}
