import Foundation
import GraphLayout
import LeakClock
import LeakDetector
import RetainGraph
import RetainGraphDrawing
import Scenarios
import ScreenKit
import TextGrid

/// The app: the only stateful object. It owns the ``AppState`` value and the
/// simulated world (a ``Scenarios/ScenarioHarness``: window, navigation stack,
/// detector, environment) on an injected scheduler.
///
/// ``send(_:)`` runs ``AppReducer`` and performs its effects on the harness,
/// then copies what the world shows back into ``state``. ``tick()`` does the
/// same when time passed and something visible changed. ``render(_:size:)``
/// draws the state; the terminal layer only reads keys and copies the grid.
///
/// Each open starts a new *run*: a fresh harness and detector, so the overlay
/// answers "did this run leak?" (`Leaked: …` after a strong run, `No issues
/// detected` after a weak one). The event log spans all runs.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// let model = AppModel(catalogue: [scenario], scheduler: scheduler)
/// model.send(.openKeyPressed)
/// model.send(.actionKeyPressed(1))
/// model.send(.closeKeyPressed)
/// scheduler.advance(by: .seconds(1))
/// model.tick()
/// model.state.report.summaryLabel  // "Leaked: FeedScreen#1"
/// ```
@MainActor
public final class AppModel {
  /// Everything the app shows.
  public private(set) var state: AppState
  /// The clock everything waits on: live in the app, manual in tests.
  public let scheduler: any Scheduler
  /// The scenarios, in catalogue order.
  public let scenarios: [Scenario]
  /// The current run's window, navigation stack, detector and environment.
  public private(set) var harness: ScenarioHarness
  /// How many runs (opens) there have been.
  public private(set) var runCount = 0

  /// Where `r` writes run reports (the current directory in the app).
  public let reportDirectory: URL
  /// Text waiting to be put on the terminal's clipboard (`y`), oldest first;
  /// the terminal layer takes it with ``takeClipboardRequests()``.
  public private(set) var clipboardRequests: [String] = []

  /// A file that says the guided tour was finished or hidden; `nil`: no tour.
  public let tourMemory: URL?
  /// Runs `leaklab trap ID` in a process of its own and returns what it
  /// printed as it crashed (the app shows it in the log); `nil`: not shown.
  private let trapRunner: (@Sendable (String) -> String)?
  /// Where the trap's child process is run from: off the main thread in the app.
  private let runInBackground: @Sendable (@escaping @Sendable () -> Void) -> Void
  private let liveInstances = LiveInstances()
  /// Every run's log of work done after the close, newest last (at most ``keptRuns``).
  private var activityLogs: [(run: Int, log: ActivityLog)] = []
  private static let keptRuns = 50
  private let configuration: LeakDetector.Configuration
  private let explainsRetainPaths: Bool
  private let rootPathSearch: RootPathSearch
  private let inbox = EventInbox()
  private let trapInbox = TrapInbox()
  private let explanationLog = ExplanationLog()
  private var explainedVersion = -1
  private var subscription: LeakSubscription?
  private var lastFingerprint: Fingerprint?

  /// Creates the app model.
  ///
  /// - Parameters:
  ///   - catalogue: the scenarios to list; the real catalogue by default.
  ///   - scheduler: the clock; ``LeakClock/LiveScheduler`` in the app.
  ///   - keyMap: the key bindings.
  ///   - configuration: the detector's grace delay and checks.
  ///   - explainsRetainPaths: whether detected leaks get their retain path (RetainGraph).
  ///   - rootPathSearch: whether and when explanations search the process's
  ///     memory for a path from a true root (see ``RootPathSearch``); off by default.
  ///   - reportDirectory: where `r` writes run reports; the current directory by default.
  ///   - tourMemory: a file whose existence means the guided tour was finished
  ///     or hidden; without it the tour starts by itself. `nil`: it never does.
  ///   - trapRunner: runs `leaklab trap ID` in a child process and returns
  ///     what it printed as it crashed; the log shows it.
  ///   - runInBackground: runs the trap runner; by default on the app's
  ///     background thread (tests run it at once).
  public init(
    catalogue: [Scenario] = Catalogue.all, scheduler: any Scheduler = LiveScheduler(),
    keyMap: KeyMap = .standard, configuration: LeakDetector.Configuration = .init(),
    explainsRetainPaths: Bool = true, rootPathSearch: RootPathSearch = .off,
    reportDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
    tourMemory: URL? = nil, trapRunner: (@Sendable (String) -> String)? = nil,
    runInBackground: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
  ) {
    self.runInBackground = runInBackground ?? BackgroundWork.shared.enqueue
    scenarios = catalogue
    self.reportDirectory = reportDirectory
    self.tourMemory = tourMemory
    self.trapRunner = trapRunner
    self.scheduler = scheduler
    self.configuration = configuration
    self.explainsRetainPaths = explainsRetainPaths
    self.rootPathSearch = rootPathSearch
    state = AppState(catalogue: catalogue.map { CatalogueEntry($0) }, keyMap: keyMap)
    if let tourMemory, !FileManager.default.fileExists(atPath: tourMemory.path) { state.tour = .open }
    (harness, subscription) = Self.makeHarness(
      scheduler: scheduler, configuration: configuration, explainsRetainPaths: explainsRetainPaths,
      rootPathSearch: rootPathSearch, inbox: inbox, explanations: explanationLog, live: liveInstances)
    refresh()
  }

  /// RetainGraph's explanations of the current run's leaks, in the order they were made.
  public var explanations: [Explanation] { explanationLog.all }

  /// The current run's summary label, read from the detector now (the state's
  /// copy is refreshed on the next action or ``tick()``).
  public var summaryLabel: String { harness.detector.summaryLabel }

  // MARK: Input

  /// Runs `action` through the reducer, performs its effects, and refreshes the state.
  public func send(_ action: AppAction) {
    var pending = [action]
    while !pending.isEmpty {
      state.now = scheduler.now
      let effects = AppReducer.reduce(&state, pending.removeFirst())
      for effect in effects {
        pending += perform(effect)
      }
    }
    refresh()
  }

  /// Looks `key` up in the key map and sends its action; returns the action,
  /// or `nil` if unbound. While the filter is typed, text, Enter, Esc and
  /// Backspace edit it; other keys (↑↓) still act.
  @discardableResult
  public func handle(_ key: Key) -> AppAction? {
    let action =
      state.isEditingFilter && !state.isHelpVisible && Self.editsFilter(key)
      ? .filterTyped(key) : state.keyMap.action(for: key)
    guard let action else { return nil }
    send(action)
    return action
  }

  private static func editsFilter(_ key: Key) -> Bool {
    switch key {
    case .character, .enter, .escape, .backspace: true
    default: false
    }
  }

  /// Tells the model the terminal's size (before a frame of that size is drawn).
  public func resize(to size: Size) {
    if size != state.screenSize { send(.terminalResized(size)) }
  }

  /// Takes the text waiting for the clipboard.
  public func takeClipboardRequests() -> [String] {
    defer { clipboardRequests = [] }
    return clipboardRequests
  }

  /// Called after time passed: refreshes the state when something visible
  /// changed (the detector's report, the phone, new events, or the age of an
  /// open leak in whole seconds). Returns whether it did.
  @discardableResult
  public func tick() -> Bool {
    guard fingerprint() != lastFingerprint else { return false }
    send(.tick)
    return true
  }

  /// How long until something on screen changes with time alone: the age
  /// of an open leak, drawn in whole seconds. `nil` when nothing does (the
  /// terminal loop then sleeps until a key or the clock's own work wakes it).
  public func nextTimeChange() -> Duration? {
    let now = scheduler.now
    return harness.detector.report.openLeaks.map { leak in
      let age = leak.age(at: now)
      return .seconds(age.components.seconds + 1) - age
    }.min()
  }

  /// The frame for a terminal of `size`: ``render(_:size:)`` of the state.
  /// The size is kept: it says how far the explain view can scroll.
  public func frame(for size: Size) -> Grid {
    resize(to: size)
    return render(state, size: size)
  }

  // MARK: The world

  private func perform(_ effect: AppEffect) -> [AppAction] {
    switch effect {
    case .open(let id, let mode):
      guard let scenario = scenarios.first(where: { $0.id == id }) else { return [.scenarioClosed] }
      if let subscription { harness.detector.unsubscribe(subscription) }
      explanationLog.removeAll()
      (harness, subscription) = Self.makeHarness(
        scheduler: scheduler, configuration: configuration, explainsRetainPaths: explainsRetainPaths,
        rootPathSearch: rootPathSearch, inbox: inbox, explanations: explanationLog, live: liveInstances)
      runCount += 1
      activityLogs.append((runCount, harness.environment.activity))
      if activityLogs.count > Self.keptRuns { activityLogs.removeFirst() }
      harness.open(scenario, mode: mode)
    case .goBack:
      if harness.goBack() == .closed { return [.scenarioClosed] }
    case .runAction(let index):
      harness.runAction(at: index)
    case .tapAlertAction(let index):
      harness.tapAlertAction(at: index)
    case .copyToClipboard(let text):
      clipboardRequests.append(text)
    case .writeReport:
      let report = RunReport(state: state)
      let url = reportDirectory.appendingPathComponent(report.fileName(run: runCount))
      // Relative to the current directory when it is there: short enough for an 80-column status bar.
      let inCurrentDirectory =
        reportDirectory.standardizedFileURL.path == FileManager.default.currentDirectoryPath
      let shown = inCurrentDirectory ? "./" + url.lastPathComponent : url.path
      do {
        try report.json().write(to: url, options: .atomic)
        return [.reportWritten(path: shown, error: nil)]
      } catch {
        return [.reportWritten(path: shown, error: "\(error.localizedDescription)")]
      }
    case .rememberTourDone:
      rememberTourDone()
    }
    return []
  }

  /// Notes that the tour was finished or hidden, so it no longer starts by itself.
  private func rememberTourDone() {
    guard let tourMemory else { return }
    try? FileManager.default.createDirectory(
      at: tourMemory.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? Data("The guided tour was finished or hidden; `t` in leaklab shows it again.\n".utf8)
      .write(to: tourMemory, options: .atomic)
  }

  /// A fresh harness whose detector posts its events to `inbox` and explains
  /// retain paths, keeping each explanation in `explanations`.
  private static func makeHarness(
    scheduler: any Scheduler, configuration: LeakDetector.Configuration, explainsRetainPaths: Bool,
    rootPathSearch: RootPathSearch, inbox: EventInbox, explanations: ExplanationLog, live: LiveInstances
  ) -> (ScenarioHarness, LeakSubscription) {
    let harness = ScenarioHarness(scheduler: scheduler, configuration: configuration, liveInstances: live)
    let detector = harness.detector
    if explainsRetainPaths {
      harness.explainRetainPaths(rootPathSearch: rootPathSearch, observe: explanations.append)
    }
    let subscription = detector.subscribe { event in inbox.post(event) }
    return (harness, subscription)
  }

  /// Copies what the world shows into the state.
  private func refresh() {
    state.now = scheduler.now
    state.phone = harness.window.snapshot()
    state.report = harness.detector.report
    if explanationLog.version != explainedVersion {
      state.retainGraphs = Self.graphs(of: explanationLog.all)
      explainedVersion = explanationLog.version
    }
    let events = inbox.drain()
    state.appendToLog(LogEntry.entries(for: events))
    if let check = events.compactMap(RunCheck.init).last { state.lastCheck = check }
    state.appendToLog(drainActivity())
    for message in trapInbox.drain() {
      state.appendToLog([LogEntry(time: scheduler.now, kind: .trap, text: message)])
    }
    state.liveCounts = liveInstances.counts()
    if let step = state.tour {
      state.tour = step.advanced(in: state)
      if state.tour == nil {
        state.notice = "Tour done: you ran a leak and its fix. t shows the tour again"
        rememberTourDone()
      }
    }
    lastFingerprint = fingerprint()
  }

  /// Log lines for work done after a close, in every run kept (an older
  /// run's lines say which run); a line about a crash starts the trap's child process.
  private func drainActivity() -> [LogEntry] {
    var entries: [LogEntry] = []
    for (run, log) in activityLogs where !log.isEmpty {
      let prefix = run == runCount ? "" : "run \(run): "
      for entry in log.drain() {
        switch entry.kind {
        case .activity:
          entries.append(LogEntry(time: scheduler.now, kind: .running, text: prefix + entry.text))
        case .wouldTrap(let id):
          entries.append(LogEntry(time: scheduler.now, kind: .trap, text: prefix + entry.text))
          runTrap(id)
        }
      }
    }
    return entries
  }

  /// Runs `leaklab trap ID` off the main thread; its crash message comes back as a log line.
  private func runTrap(_ id: String) {
    guard let trapRunner else { return }
    let scheduler = self.scheduler
    let inbox = self.trapInbox
    runInBackground {
      let message = trapRunner(id)
      inbox.post(message)
      scheduler.schedule(after: .zero) {}
    }
  }

  /// Each explained leak's graph, by name: its own path and the leaks it hangs off.
  private static func graphs(of explanations: [Explanation]) -> [String: ReferenceGraph] {
    var graphs: [String: ReferenceGraph] = [:]
    for (index, explanation) in explanations.enumerated() {
      graphs[explanation.object.name] = ReferenceGraph(explanations: explanations, focusingOn: index)
    }
    return graphs
  }

  /// What a redraw depends on besides keys.
  private struct Fingerprint: Equatable {
    var leaks: [LeakedInstance]
    var budgetIssues: [BudgetIssue]
    var phone: ScreenSnapshot?
    var hasNewEvents: Bool
    var liveCounts: [String: Int]
    /// The open leaks' ages in whole seconds, as the overlay draws them.
    var openLeakAges: [Int64]
    /// Still checking (the code pane's lint line waits for the verdict).
    var isChecking: Bool
  }

  private func fingerprint() -> Fingerprint {
    let report = harness.detector.report
    return Fingerprint(
      leaks: report.leaks, budgetIssues: report.budgetIssues, phone: harness.window.snapshot(),
      hasNewEvents: !inbox.isEmpty || !trapInbox.isEmpty || activityLogs.contains { !$0.log.isEmpty },
      liveCounts: liveInstances.counts(),
      openLeakAges: report.openLeaks.map { $0.age(at: report.time).components.seconds },
      isChecking: report.pendingExpectations > 0)
  }
}
