import Testing

@testable import MemcheckOracle

/// A memcheck log cut down from a real run of `leaklab oracle-probe`.
let sampleLog = """
  ==7787== Memcheck, a memory error detector
  ==7787== Command: leaklab oracle-probe closure-capture --mode strong
  ==7787==
  ==7787== 17 bytes in 1 blocks are still reachable in loss record 57 of 327
  ==7787==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
  ==7787==    by 0x4D05A6E: swift_slowAlloc (in /opt/swift/usr/lib/swift/linux/libswiftCore.so)
  ==7787==    by 0x4D05DC6: swift_allocObject (in /opt/swift/usr/lib/swift/linux/libswiftCore.so)
  ==7787==    by 0x15C913: $s9Scenarios11InboxScreenC11viewDidLoadyyF (NotificationObserver.swift:31)
  ==7787==
  ==7787== 32 bytes in 1 blocks are indirectly lost in loss record 82 of 327
  ==7787==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
  ==7787==    by 0x4D05A6E: swift_slowAlloc (in /opt/swift/usr/lib/swift/linux/libswiftCore.so)
  ==7787==    by 0x4D05DC6: swift_allocObject (in /opt/swift/usr/lib/swift/linux/libswiftCore.so)
  ==7787==    by 0x17D58C: $s9Scenarios11FeedServiceCACycfC (ClosureCapture.swift:12)
  ==7787==
  ==7787== 1,216 (120 direct, 1,096 indirect) bytes in 1 blocks are definitely lost in loss record 276 of 327
  ==7787==    at 0x4846990: memalign (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
  ==7787==    by 0x4D05A93: swift_slowAlloc (in /opt/swift/usr/lib/swift/linux/libswiftCore.so)
  ==7787==    by 0x4DAA480: swift::threading_impl::once_slow(swift::threading_impl::once_t&, void (*)(void*), void*) (in /opt/swift/usr/lib/swift/linux/libswiftCore.so)
  ==7787==
  ==7787== 136 bytes in 2 blocks are still reachable in loss record 300 of 327
  ==7787==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
  ==7787==    by 0x4D05A6E: swift_slowAlloc (in /opt/swift/usr/lib/swift/linux/libswiftCore.so)
  ==7787==    by 0x4D05DC6: swift_allocObject (in /opt/swift/usr/lib/swift/linux/libswiftCore.so)
  ==7787==    by 0x15CAC6: $s9Scenarios10SyncScreenC4mode9mainQueueAcA12ScenarioModeO_0C3Kit04MainF0VtcfC (DelayedDispatch.swift:5)
  ==7787==
  ==7787== LEAK SUMMARY:
  ==7787==    definitely lost: 1,216 bytes in 1 blocks
  """

@Suite struct LossRecordTests {
  @Test func readsEveryRecordWithItsKindSizeAndStack() {
    let records = LossRecord.parse(log: sampleLog)
    #expect(records.map(\.kind) == [.stillReachable, .indirectlyLost, .definitelyLost, .stillReachable])
    #expect(records.map(\.bytes) == [17, 32, 1216, 136])
    #expect(records.map(\.blocks) == [1, 1, 1, 2])
    #expect(
      records[1].frames == [
        "malloc", "swift_slowAlloc", "swift_allocObject", "$s9Scenarios11FeedServiceCACycfC",
      ])
    #expect(
      records[2].frames.last
        == "swift::threading_impl::once_slow(swift::threading_impl::once_t&, void (*)(void*), void*)")
  }

  @Test func namesTheClassWhoseAllocatingInitializerMadeTheBlock() {
    let classes = LossRecord.parse(log: sampleLog).map { $0.allocatedClass?.description }
    #expect(classes == [nil, "Scenarios.FeedService", nil, "Scenarios.SyncScreen"])
  }

  @Test func theAllocatingModuleIsTheInnermostSwiftModuleOnTheStack() {
    let modules = LossRecord.parse(log: sampleLog).map(\.allocatingModule)
    #expect(modules == ["Scenarios", "Scenarios", nil, "Scenarios"])
    let grownString = LossRecord(
      kind: .indirectlyLost, bytes: 64, blocks: 1,
      frames: [
        "malloc", "$ss22_allocateStringStorage", "$sIegh_ytIeghr_TR", "$s9LeakClock15ManualSchedulerC3run",
      ])
    #expect(grownString.allocatingModule == "LeakClock")
  }

  @Test func onlyReachableBlocksAreReachable() {
    #expect(
      LossRecord.Kind.allCases.filter(\.isUnreachable) == [.definitelyLost, .indirectlyLost, .possiblyLost])
  }

  @Test func findingsKeepTheWatchedModulesOnly() {
    let findings = MemcheckFindings(records: LossRecord.parse(log: sampleLog), modules: ["Scenarios"])
    #expect(findings.alive == ["FeedService": .unreachable, "SyncScreen": .reachable])
    #expect(MemcheckFindings(records: LossRecord.parse(log: sampleLog), modules: ["ScreenKit"]).alive.isEmpty)
  }

  @Test func aTypeWithOneReachableInstanceIsReachable() {
    let lost = LossRecord(
      kind: .indirectlyLost, bytes: 32, blocks: 1,
      frames: ["malloc", "swift_allocObject", "$s9Scenarios11FeedServiceCACycfC"])
    var reachable = lost
    reachable.kind = .stillReachable
    #expect(
      MemcheckFindings(records: [lost, reachable], modules: ["Scenarios"]).alive == [
        "FeedService": .reachable
      ])
    #expect(
      MemcheckFindings(records: [reachable, lost], modules: ["Scenarios"]).alive == [
        "FeedService": .reachable
      ])
  }

  @Test func linesThatAreNotRecordsAreIgnored() {
    #expect(
      LossRecord.parse(log: "==1== HEAP SUMMARY:\n==1==     in use at exit: 0 bytes in 0 blocks\n").isEmpty)
    #expect(LossRecord.parse(log: "").isEmpty)
  }
}
