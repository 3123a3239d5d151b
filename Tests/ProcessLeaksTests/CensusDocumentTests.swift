import Foundation
import HeapModel
import ProcessLeaks
import Testing

/// The census file round trip, the timeline and the exit-status gate, without a process.
@Suite struct CensusDocumentTests {
  static func entry(_ name: String, count: Int, addresses: [UInt], kind: BlockKind = .object)
    -> HeapCensus.Entry
  {
    HeapCensus.Entry(
      key: "\(kind) App.\(name)", name: name, qualifiedName: "App.\(name)", kind: kind, module: "App",
      image: "App", isProgramType: true, count: count, bytes: count * 48,
      instances: InstanceAddresses(sorted: addresses))
  }

  static func taken(_ entries: [HeapCensus.Entry], seconds: Double = 0) -> TakenCensus {
    let census = HeapCensus(
      entries: entries, blocks: entries.reduce(0) { $0 + $1.count },
      bytes: entries.reduce(0) { $0 + $1.bytes })
    return TakenCensus(
      process: CheckedProcess(pid: 42, executable: "/bin/App", arguments: [], mode: .attached),
      census: census,
      time: Date(timeIntervalSince1970: 1_800_000_000 + seconds), stoppedMilliseconds: 12.34)
  }

  @Test func aCensusWrittenAsJSONReadsBackWithEveryAddress() throws {
    let addresses: [UInt] = [0x5555_0000_1000, 0x5555_0000_1030, 0x5555_0001_0000]
    let taken = Self.taken([Self.entry("Record", count: 3, addresses: addresses)])
    let document = try CensusDocument.decode(CensusDocument(taken).encoded())
    #expect(document.schema == 1)
    #expect(document.process.pid == 42)
    #expect(document.stoppedMilliseconds == 12.3)
    let census = try document.census
    #expect(census == taken.census)
    #expect(Array(census.entries[0].instances) == addresses)
  }

  @Test func addressesThatDoNotMatchTheCountAreRefusedInOneLine() throws {
    var document = CensusDocument(Self.taken([Self.entry("Record", count: 2, addresses: [0x1000, 0x2000])]))
    document.types[0].count = 3
    #expect(throws: CensusFileError.self) { _ = try document.census }
    do {
      _ = try document.census
    } catch {
      #expect(error.description == "the addresses of Record do not match its count")
    }
  }

  @Test func aFileOfAnotherSchemaIsRefused() throws {
    var json = try #require(
      try JSONSerialization.jsonObject(with: CensusDocument(Self.taken([])).encoded()) as? [String: Any])
    json["schema"] = 2
    let data = try JSONSerialization.data(withJSONObject: json)
    #expect(throws: CensusFileError("census schema 2, this leaklab reads 1")) {
      try CensusDocument.decode(data)
    }
  }

  @Test func aTimelineFollowsEachTypeAcrossCensusesAndDrawsBars() {
    let censuses = [1, 2, 4, 8].enumerated().map { index, count in
      Self.taken(
        [
          Self.entry("Record", count: count, addresses: (0..<count).map { UInt(0x1000 + $0 * 16) }),
          Self.entry("Steady", count: 5, addresses: (0..<5).map { UInt(0x9000 + $0 * 16) }),
          Self.entry("Cached", count: 100 * (index + 1), addresses: [], kind: .cached),
        ], seconds: Double(index))
    }
    let timeline = CensusTimeline(censuses)
    #expect(timeline.points.count == 4)
    #expect(timeline.series.map(\.name) == ["Record", "Steady"], "free memory is no object")
    #expect(timeline.series[0].counts == [1, 2, 4, 8])
    #expect(timeline.series[0].growsSteadily)
    #expect(!timeline.series[1].growsSteadily)
    #expect(CensusTimeline.sparkline([1, 2, 4, 8]) == "▁▂▄█")
    #expect(CensusTimeline.sparkline([3, 3]) == "▁▁")
    #expect(timeline.grown(pastThreshold: 6, matching: []).map(\.name) == ["Record"])
    #expect(timeline.grown(pastThreshold: 7, matching: []).isEmpty)
    #expect(timeline.grown(pastThreshold: 0, matching: ["Other.*"]).isEmpty)
    #expect(timeline.grown(pastThreshold: 0, matching: ["App.Rec*"]).map(\.name) == ["Record"])
  }

  @Test func theGateMatchesTheNameOrTheQualifiedName() {
    let before = Self.taken([Self.entry("Record", count: 1, addresses: [0x1000])]).census
    let after = Self.taken([Self.entry("Record", count: 3, addresses: [0x1000, 0x1010, 0x1020])]).census
    let diff = CensusDiff(from: before, to: after)
    #expect(diff.grown(pastThreshold: 0, matching: ["Record"]).count == 1)
    #expect(diff.grown(pastThreshold: 0, matching: ["App.*"]).count == 1)
    #expect(diff.grown(pastThreshold: 0, matching: ["Feed.*"]).isEmpty)
    #expect(diff.grown(pastThreshold: 2, matching: []).isEmpty)
  }
}
