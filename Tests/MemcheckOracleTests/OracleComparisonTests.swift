import Foundation
import Testing

@testable import MemcheckOracle

@Suite struct OracleComparisonTests {
  typealias Leak = DetectorClaim.Leak

  let clean = DetectorClaim(label: "No issues detected", leaks: [])
  let cycle = DetectorClaim(
    label: "Leaked: CheckoutScreen#1", leaks: [Leak(typeName: "CheckoutScreen", path: .cycle, isOpen: true)])

  @Test func agreesWhenBothSeeTheSameLeak() {
    let memcheck = MemcheckFindings(alive: ["CheckoutScreen": .unreachable, "View": .unreachable])
    #expect(OracleComparison(atGrace: cycle, memcheck: memcheck).agrees)
  }

  @Test func agreesWhenBothSeeNothing() {
    #expect(OracleComparison(atGrace: clean, memcheck: MemcheckFindings(alive: [:])).agrees)
  }

  @Test func aReportedLeakMemcheckSawFreedIsADisagreement() {
    let comparison = OracleComparison(atGrace: cycle, memcheck: MemcheckFindings(alive: [:]))
    #expect(comparison.disagreements == ["CheckoutScreen reported alive, but memcheck found it freed"])
  }

  @Test func aCleanVerdictWithObjectsAliveIsADisagreement() {
    let comparison = OracleComparison(
      atGrace: clean, memcheck: MemcheckFindings(alive: ["View": .reachable, "InboxScreen": .reachable]))
    #expect(comparison.disagreements == ["clean, but memcheck found InboxScreen, View allocated"])
  }

  @Test func anUnreachableLeakNeedsARetainPath() {
    let unexplained = DetectorClaim(
      label: "Leaked: DraftsScreen#1",
      leaks: [Leak(typeName: "DraftsScreen", path: .notVisible, isOpen: true)])
    let lost = OracleComparison(
      atGrace: unexplained, memcheck: MemcheckFindings(alive: ["DraftsScreen": .unreachable]))
    #expect(lost.disagreements == ["DraftsScreen is unreachable (a cycle), but no retain path was shown"])
    let held = OracleComparison(
      atGrace: unexplained, memcheck: MemcheckFindings(alive: ["DraftsScreen": .reachable]))
    #expect(held.agrees)
  }

  @Test func aTemporaryLeakMustBeGoneAtTheEndAndAPermanentOneStillThere() {
    let atGrace = DetectorClaim(
      label: "Leaked: SyncScreen#1", leaks: [Leak(typeName: "SyncScreen", path: .root, isOpen: true)])
    let resolved = DetectorClaim(
      label: "No issues detected", leaks: [Leak(typeName: "SyncScreen", path: .root, isOpen: false)])
    let memcheckAtGrace = MemcheckFindings(alive: ["SyncScreen": .reachable])
    let agreeing = OracleComparison(
      atGrace: atGrace, memcheck: memcheckAtGrace, atEnd: (resolved, MemcheckFindings(alive: [:])))
    #expect(agreeing.agrees)
    let stillThere = OracleComparison(
      atGrace: atGrace, memcheck: memcheckAtGrace, atEnd: (resolved, memcheckAtGrace))
    #expect(
      stillThere.disagreements == ["SyncScreen reported resolved, but memcheck found it still allocated"])
    let freedEarly = OracleComparison(
      atGrace: atGrace, memcheck: memcheckAtGrace, atEnd: (atGrace, MemcheckFindings(alive: [:])))
    #expect(freedEarly.disagreements == ["SyncScreen still reported at the end, but memcheck found it freed"])
  }

  @Test func claimsRoundTripThroughJSON() throws {
    let data = try JSONEncoder().encode(cycle)
    #expect(try JSONDecoder().decode(DetectorClaim.self, from: data) == cycle)
  }
}

@Suite struct DetectorOwnBlocksTests {
  func record(_ kind: LossRecord.Kind, _ frames: [String]) -> LossRecord {
    LossRecord(kind: kind, bytes: 48, blocks: 2, frames: ["malloc", "swift_slowAlloc"] + frames)
  }

  @Test func lostBlocksAllocatedByTheDetectorAreCountedButNotRuntimeCaches() {
    let records = [
      record(.definitelyLost, ["swift_allocObject", "$s12LeakDetectorAAC5sweepyyF"]),
      record(.stillReachable, ["$s12LeakDetectorAAC5sweepyyF"]),
      record(.indirectlyLost, ["formWeakReference()", "swift_weakInit", "$s12LeakDetectorAAC5sweepyyF"]),
      record(.definitelyLost, ["$s9Scenarios11FeedServiceCACycfC"]),
      record(.possiblyLost, ["swift_getWitnessTable", "$s12LeakDetector12ChunkedQueueV6appendyyxF"]),
      record(
        .indirectlyLost,
        [
          "swift_allocObject", "$ss22_allocateStringStorage", "$s9Scenarios11ImageLoaderC4load",
          "$sIegh_ytIeghr_TR",
          "$s9LeakClock15ManualSchedulerC10runDueWorkyyF",
        ]),
    ]
    let findings = MemcheckFindings(records: records, modules: [], ownModules: ["LeakDetector"])
    #expect(findings.ownLostBlocks == 2)  // the first record only: the others are not the detector's
    #expect(MemcheckFindings(records: records, modules: [], ownModules: ["LeakClock"]).ownLostBlocks == 0)
  }

  @Test func aDetectorThatLeaksDisagreesEvenWhenItsVerdictIsRight() {
    let claim = DetectorClaim(label: "No issues detected", leaks: [])
    let comparison = OracleComparison(
      atGrace: claim, memcheck: MemcheckFindings(alive: [:], ownLostBlocks: 3))
    #expect(comparison.disagreements == ["the detector's own code left 3 lost blocks"])
  }
}
