import LeakClock
import LeakLabTestSupport
import LeakTesting
import Testing

@MainActor
/// In a process of its own: a survivor that no cycle explains is searched
/// for in memory, and that answer depends on what else lives in the process.
@Suite(.inProcessOfItsOwn("LeakTrackerTests")) struct LeakTrackerTests {
  @Test func passesWhenEveryTrackedObjectIsGone() {
    let leaks = LeakTracker()
    do {
      let holder = ClosureHolder()
      leaks.track(holder)
      leaks.track(Owner(strongDelegate: false))
    }
    #expect(leaks.trackedCount == 2)
    #expect(leaks.verify().passed)
    #expect(leaks.trackedCount == 0)
  }

  @Test func failsAtTheLineThatTrackedEachSurvivor() {
    let leaks = LeakTracker()
    let holder = ClosureHolder()
    holder.captureSelf()
    leaks.track(holder)
    let trackedLine = #line - 1
    leaks.track(Owner(strongDelegate: false))
    let recorded = expectIssues([
      "ClosureHolder is still alive at the end of the test;"
        + " retained by: retain cycle: ClosureHolder → onChange: closure in ClosureHolder.captureSelf()"
        + " → captures ClosureHolder (strong)"
    ]) {
      leaks.verify()
    }
    #expect(recorded.lines == [trackedLine])
    holder.breakCycle()
  }

  @Test func waitsOnTheManualClockBeforeChecking() {
    let scheduler = ManualScheduler()
    // The wait's message alone (see AssertDeallocationTests' timeout test).
    let leaks = LeakTracker(wait: .manual(scheduler, timeout: .seconds(1)), explain: noRetainPath)
    leaks.track(PendingWorker(scheduler: scheduler, delay: .milliseconds(500)))
    leaks.track(PendingWorker(scheduler: scheduler, delay: .seconds(3)))
    expectIssues(["PendingWorker is still alive 1.0 s after the end of the test"]) {
      leaks.verify()
    }
    scheduler.advance(by: .seconds(2))
  }

  // MARK: The .leakChecked trait

  @Test(.leakChecked) func theTraitChecksObjectsTrackedInTheTest() {
    #expect(LeakTracker.current != nil)
    trackForLeaks(ClosureHolder())
  }

  @Test func theTraitFailsTheTestForASurvivor() async throws {
    let scheduler = ManualScheduler()
    let test = try #require(Test.current)
    await expectIssues(["PendingWorker is still alive at the end of the test"]) {
      try? await LeakCheckedTrait.leakChecked(explain: noRetainPath).provideScope(
        for: test, testCase: Test.Case.current
      ) {
        await MainActor.run { trackForLeaks(PendingWorker(scheduler: scheduler, delay: .seconds(1))) }
      }
    }
    scheduler.advance(by: .seconds(1))
  }

  @Test func trackForLeaksWithoutTheTraitSaysWhatIsMissing() {
    expectIssues([
      "trackForLeaks(_:) has no tracker: add the .leakChecked trait to the test, or use a LeakTracker"
    ]) {
      trackForLeaks(ClosureHolder())
    }
  }
}

/// The trait on a suite gives every test in it a tracker of its own.
@MainActor
@Suite(.leakChecked) struct LeakCheckedSuiteTests {
  @Test func aTestInTheSuiteHasATracker() {
    #expect(LeakTracker.current != nil)
    trackForLeaks(Owner(strongDelegate: false))
  }

  @Test func eachTestHasItsOwn() {
    #expect(LeakTracker.current?.trackedCount == 0)
  }
}

@Test(.runsSuitesAlone) func leakTrackerTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("LeakTestingTests.LeakTrackerTests")
}
