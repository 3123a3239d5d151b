import LeakLint
import Testing

/// The shapes of the five scenarios the catalogue is getting (issue 26), each
/// written on ScreenKit and LeakClock as a scenario is and linted beside them,
/// in its leaky form (flagged on the marked line, by the rule named) and its
/// fixed form (nothing). `CatalogueLintTests` lints the real scenario files
/// once they land; these keep the rules ready for them.
@Suite struct NewScenarioShapeTests {
  /// Lints `code` with ScreenKit and LeakClock and checks the findings in it
  /// are exactly on the lines marked `// flagged`, each by `rule`.
  func expectFindingsBesideScreenKit(
    _ code: String, rule: LintRule? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let inputs = [SourceInput(path: "Scenario.swift", text: code)] + (try ScenarioForm.libraryInputs())
    let findings = Linter().lint(files: inputs).filter { $0.file == "Scenario.swift" }
    let marked = code.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      .filter { $0.element.contains("// flagged") }.map { $0.offset + 1 }
    #expect(
      findings.map(\.line) == marked, "\(findings.map(\.compilerFormat))", sourceLocation: sourceLocation)
    for finding in findings where rule != nil {
      #expect(finding.rule == rule, "\(finding.compilerFormat)", sourceLocation: sourceLocation)
    }
  }

  // MARK: A Combine sink stored in cancellables

  static func quoteScreen(_ subscription: String) -> String {
    """
    import OpenCombine
    import ScreenKit

    final class QuoteFeed {
      let prices = PassthroughSubject<Int, Never>()
      func publish(_ price: Int) { prices.send(price) }
    }

    final class QuoteScreen: Screen {
      let feed: QuoteFeed
      let priceLabel = Label("Waiting", identifier: "quote.price")
      private var cancellables = Set<AnyCancellable>()

      init(feed: QuoteFeed) {
        self.feed = feed
        super.init(title: "Quote")
      }

      override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(priceLabel)
        \(subscription)
      }

      func show(_ price: Int) { priceLabel.text = "ACME \\(price)" }
    }
    """
  }

  @Test func aSinkInCancellablesCapturingTheScreenIsFlagged() throws {
    try expectFindingsBesideScreenKit(
      Self.quoteScreen(
        "feed.prices.sink { price in self.show(price) }.store(in: &cancellables)  // flagged"),
      rule: .combineSink)
  }

  @Test func aWeakSinkIsNotFlagged() throws {
    try expectFindingsBesideScreenKit(
      Self.quoteScreen(
        "feed.prices.sink { [weak self] price in self?.show(price) }.store(in: &cancellables)"))
  }

  // MARK: A coordinator and its child coordinator

  static func coordinators(_ parent: String, _ use: String) -> String {
    """
    import ScreenKit

    final class AppCoordinator {
      let stack: NavigationStack
      private var children: [OnboardingCoordinator] = []

      init(stack: NavigationStack) { self.stack = stack }

      func startOnboarding() {
        let child = OnboardingCoordinator(stack: stack)
        child.parent = self
        children.append(child)
        child.start()
      }

      func onboardingDidFinish() { _ = stack.pop() }
    }

    final class OnboardingCoordinator {
      \(parent)
      let stack: NavigationStack

      init(stack: NavigationStack) { self.stack = stack }

      func start() { stack.push(Screen(title: "Welcome")) }

      func finish() { \(use) }
    }
    """
  }

  @Test func aChildCoordinatorHoldingItsParentIsFlagged() throws {
    try expectFindingsBesideScreenKit(
      Self.coordinators("var parent: AppCoordinator?  // flagged", "parent?.onboardingDidFinish()"),
      rule: .strongBackReference)
  }

  @Test func aChildCoordinatorHoldingItsParentWeaklyIsNotFlagged() throws {
    try expectFindingsBesideScreenKit(
      Self.coordinators("weak var parent: AppCoordinator?", "parent?.onboardingDidFinish()"))
  }

  // MARK: A task zombie

  static func ticker(capture: String, disappear: String) -> String {
    """
    import ScreenKit

    final class Ticker {
      let ticks: AsyncStream<Int>
      private let continuation: AsyncStream<Int>.Continuation
      init() { (ticks, continuation) = AsyncStream.makeStream(of: Int.self) }
      func tick(_ value: Int) { continuation.yield(value) }
    }

    final class StopwatchScreen: Screen {
      let ticker: Ticker
      let elapsedLabel = Label("0 s", identifier: "stopwatch.elapsed")
      private(set) var task: Task<Void, Never>?

      init(ticker: Ticker) {
        self.ticker = ticker
        super.init(title: "Stopwatch")
      }

      override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(elapsedLabel)
        let ticks = ticker.ticks
        \(capture)
      }

      override func viewDidDisappear() {
        super.viewDidDisappear()
        \(disappear)
      }

      func show(_ seconds: Int) { elapsedLabel.text = "\\(seconds) s" }
    }
    """
  }

  @Test func aWeakTaskLoopNobodyCancelsIsAZombie() throws {
    try expectFindingsBesideScreenKit(
      Self.ticker(
        capture: "task = Task { [weak self] in for await tick in ticks { self?.show(tick) } }  // flagged",
        disappear: "print(\"closed\")"),
      rule: .taskZombie)
  }

  @Test func aWeakTaskLoopCancelledWhenTheScreenCloses() throws {
    try expectFindingsBesideScreenKit(
      Self.ticker(
        capture: "task = Task { [weak self] in for await tick in ticks { self?.show(tick) } }",
        disappear: "task?.cancel()"))
  }

  // MARK: An unowned capture that outlives its owner

  static func saveScreen(_ capture: String) -> String {
    """
    import ScreenKit

    final class SaveScreen: Screen {
      let mainQueue: MainQueue
      let statusLabel = Label("Not saved", identifier: "save.status")

      init(mainQueue: MainQueue) {
        self.mainQueue = mainQueue
        super.init(title: "Save")
      }

      func save() {
        statusLabel.text = "Saving…"
        \(capture)
      }
    }
    """
  }

  @Test func anUnownedSelfInABlockTheQueueRunsLaterIsFlagged() throws {
    try expectFindingsBesideScreenKit(
      Self.saveScreen(
        "mainQueue.asyncAfter(.seconds(3)) { [unowned self] in self.statusLabel.text = \"Saved\" }  // flagged"
      ),
      rule: .unownedCapture)
  }

  @Test func aWeakSelfInThatBlockIsNotFlagged() throws {
    try expectFindingsBesideScreenKit(
      Self.saveScreen(
        "mainQueue.asyncAfter(.seconds(3)) { [weak self] in self?.statusLabel.text = \"Saved\" }"))
  }

  // MARK: A server handler and its context

  static func pipeline(_ handler: String) -> String {
    """
    final class ChannelContext {
      let name: String
      let handler: EchoHandler
      private(set) var written: [String] = []

      init(name: String, handler: EchoHandler) {
        self.name = name
        self.handler = handler
      }

      func write(_ message: String) { written.append(message) }
    }

    final class ChannelPipeline {
      private var contexts: [ChannelContext] = []

      func addHandler(_ handler: EchoHandler, name: String) {
        let context = ChannelContext(name: name, handler: handler)
        contexts.append(context)
        handler.handlerAdded(context: context)
      }
    }

    final class EchoHandler {
      \(handler)

      func handlerAdded(context: ChannelContext) { self.context = context }

      func channelRead(_ message: String) { context?.write(message) }
    }
    """
  }

  @Test func aHandlerKeepingItsContextIsFlagged() throws {
    try expectFindingsBesideScreenKit(
      Self.pipeline("private var context: ChannelContext?  // flagged"), rule: .strongBackReference)
  }

  @Test func aHandlerHoldingItsContextWeaklyIsNotFlagged() throws {
    try expectFindingsBesideScreenKit(Self.pipeline("private weak var context: ChannelContext?"))
  }
}
