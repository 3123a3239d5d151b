import LeakClock
import LeakLabTestSupport
import LeakTesting
import Testing

@MainActor
/// In a process of its own: a survivor that no cycle explains is searched
/// for in memory, and that answer depends on what else lives in the process.
@Suite(.inProcessOfItsOwn("AssertModuleDeallocatesTests")) struct AssertModuleDeallocatesTests {
  @Test func passesWhenEveryPartGoesWithTheRoot() {
    let result = assertModuleDeallocates { makeAndExpose(strong: false) }
    #expect(result.passed)
  }

  @Test func failsNamingEveryPartKeptAliveByAStrongBackReference() {
    weak var leaked: Presenter?  // weak: only the cycle may keep it alive
    expectIssues([
      "module part `screen` (ModuleScreen) is still alive after the module was released;"
        + " retained by: retain cycle: ModuleScreen → presenter: Presenter → strongScreen: ModuleScreen (strong)",
      "module part `presenter` (Presenter) is still alive after the module was released;"
        + " retained by: retain cycle: Presenter → strongScreen: ModuleScreen → presenter: Presenter (strong)",
      // Only the presenter, which is in the cycle, holds the service: no cycle runs through it.
      "module part `service` (Service) is still alive after the module was released",
    ]) {
      assertModuleDeallocates({ makeAndExpose(strong: true) }, using: { leaked = $0.presenter })
    }
    leaked?.strongScreen = nil
  }

  @Test func namesUnlabelledPartsByPosition() {
    let owner = Owner(strongDelegate: false)
    expectIssues(["module part #2 (Owner) is still alive after the module was released"]) {
      assertModuleDeallocates({ (ClosureHolder(), owner, 42) }, explain: noRetainPath)
    }
  }

  @Test func waitsOnTheManualClockForPendingWork() {
    let scheduler = ManualScheduler()
    let result = assertModuleDeallocates(
      { (worker: PendingWorker(scheduler: scheduler, delay: .seconds(3)), holder: ClosureHolder()) },
      wait: .manual(scheduler, timeout: .seconds(5)))
    #expect(result.passed)
    #expect(scheduler.now == .seconds(3))
  }

  @Test func failsWhenTheModuleExposesNoObjects() {
    expectIssues(["the module ((Int, String)) exposes no objects to check"]) {
      assertModuleDeallocates { (1, "one") }
    }
  }

  @Test func theAsyncOverloadChecksToo() async {
    weak var leaked: Presenter?  // weak: only the cycle may keep it alive
    await expectIssues([
      "module part `screen` (ModuleScreen) is still alive after the module was released;"
        + " retained by: retain cycle: ModuleScreen → presenter: Presenter → strongScreen: ModuleScreen (strong)",
      "module part `presenter` (Presenter) is still alive after the module was released;"
        + " retained by: retain cycle: Presenter → strongScreen: ModuleScreen → presenter: Presenter (strong)",
      // Only the presenter, which is in the cycle, holds the service: no cycle runs through it.
      "module part `service` (Service) is still alive after the module was released",
    ]) {
      await assertModuleDeallocates(
        { makeAndExpose(strong: true) },
        using: { module in
          await Task.yield()
          leaked = module.presenter
        })
    }
    leaked?.strongScreen = nil
  }
}

@Test(.runsSuitesAlone) func assertModuleDeallocatesTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("LeakTestingTests.AssertModuleDeallocatesTests")
}
