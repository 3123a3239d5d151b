import LeakLabTestSupport
import Testing

/// `leaklab leaks` on programs LeakLab did not build into itself: each
/// fixture leaks through a library in its leaky form and not in its fixed form.
@Suite(.memoryViewSupported) struct LeaksFixtureTests {
  /// A fixture, what it leaks, and the reference its fix changes.
  struct Case: Sendable, CustomTestStringConvertible {
    var fixture: String
    /// The program's own types (defined in its executable, packages it links
    /// statically included) that leak in the leaky form.
    var leaked: [String]
    /// A reference of the retain cycle (`label → Type`): the culprit.
    var culprit: String
    /// Extra options (the Foundation Timer case sees its cycle only without
    /// the default suppressions).
    var options: [String] = []

    var testDescription: String { fixture }
  }

  static let cases: [Case] = [
    Case(
      fixture: "FeedCycle", leaked: ["FeedService", "LoadFeedUseCase"],
      culprit: "completion → LoadFeedUseCase"),
    Case(fixture: "OperationCompletion", leaked: [], culprit: "captures[0] → BlockOperation"),
    Case(
      fixture: "TimerBlock", leaked: ["Poller"], culprit: "_fire → Poller",
      options: ["--no-default-suppressions"]),
    Case(fixture: "NotificationObserver", leaked: ["Inbox"], culprit: "captures → Inbox"),
    Case(fixture: "DispatchWorkItemCycle", leaked: ["Uploader"], culprit: "pending → DispatchWorkItem"),
    Case(fixture: "DispatchDataSource", leaked: ["ProgressReporter"], culprit: "source → DispatchSource"),
    Case(
      fixture: "CombineSink", leaked: ["SearchViewModel"],
      culprit: "receiveValue → SearchViewModel"),
  ]

  @Test(arguments: cases)
  func theLeakyFormLeaksItsObjectsInARetainCycleWithTheCulpritReference(_ leak: Case) throws {
    let (status, report) = try LeaksCommand.json(
      [LeaksCommand.fixture(leak.fixture), "leaky"], options: leak.options)
    #expect(status == 1)
    #expect(report.process.mode == "launched")
    #expect(report.process.exitStatus == 0)
    #expect(report.programTypes == leak.leaked)
    #expect(report.summary.retainCycles >= 1)
    #expect(report.cycleEdges.contains(leak.culprit), "cycle edges: \(report.cycleEdges.sorted())")
  }

  @Test(arguments: cases)
  func theFixedFormLeaksNothingOfItsOwn(_ leak: Case) throws {
    let (status, report) = try LeaksCommand.json([LeaksCommand.fixture(leak.fixture), "fixed"])
    #expect(status == 0)
    #expect(report.summary.leakedObjects == 0)
    #expect(report.process.exitStatus == 0)
  }

  /// What the runtime holds where no word points at a block's start is
  /// held: a task waiting on a `CheckedContinuation` that a global keeps
  /// (the continuation's canary holds the task in its tail), a live object's
  /// weak reference side table (behind its counts word; memcheck calls that
  /// one "definitely lost"), a task waiting on an unsafe continuation kept
  /// in a C buffer (its own frames keep its address, and hold nothing), a
  /// finished task's result (held until the task
  /// goes), an object whose deinit another thread was
  /// running when the program exited (and what it still holds).
  @Test(arguments: ["waiting", "weakened", "resumable", "unread", "dying"])
  func whatTheRuntimeHoldsOutOfSightIsNoLeak(_ mode: String) throws {
    let (status, report) = try LeaksCommand.json([LeaksCommand.fixture("RuntimeHeld"), mode])
    #expect(report.objects.map(\.type) == [])
    #expect(status == 0)
  }

  /// The task is the leak's root, not a cycle with its frames: they keep
  /// its address (the continuation's context) but hold no count of it.
  @Test func aTaskWhoseContinuationWasDroppedLeaksWithWhatItsFramesHold() throws {
    let (status, report) = try LeaksCommand.json([LeaksCommand.fixture("RuntimeHeld"), "abandoned"])
    #expect(status == 1)
    #expect(report.programTypes == ["Payload"])
    #expect(report.summary.retainCycles == 0)
    #expect(report.kinds.map(\.signature) == ["Task (closure in startWaitingTask())"])
  }

  @Test func foundationsTimerLeakIsSuppressedByDefaultAndNamedWhenAskedFor() throws {
    let timer = LeaksCommand.fixture("TimerBlock")
    let suppressed = try LeaksCommand.json([timer, "fixed"])
    #expect(suppressed.report.summary.suppressedBlocks >= 3)
    let all = try LeaksCommand.json([timer, "fixed"], options: ["--no-default-suppressions"])
    #expect(all.status == 1)
    #expect(all.report.objects.contains { $0.qualifiedType == "Foundation.Timer" })
  }
}
