import ScreenKit

extension Catalogue {
  /// `task-loop`: a stored `Task` looping over a stream that never finishes, using `self`.
  public static let taskLoop = Scenario(
    id: "task-loop",
    title: "Task looping over an endless stream",
    pattern: "task = Task { for await price in prices { self.show(price) } }",
    actions: [ScenarioAction("Publish price", "The ticker publishes a price; the task shows it.")],
    whyItLeaks: """
      A task keeps its closure, and what the closure captures, until the task finishes, and a loop \
      over a stream that never ends never finishes. The screen stores the task and the task holds \
      the screen.
      """,
    fix: "Capture `[weak self]` in the task and cancel it in `viewDidDisappear`.",
    code: #"""
      private(set) var task: Task<Void, Never>?

      private func startListening() {
        let prices = ticker.prices
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          task = Task { for await price in prices { self.show(price) } }  // leaklab:strong
        case .weak:  // leaklab:toggle
          task = Task { [weak self] in for await price in prices { self?.show(price) } }  // leaklab:weak
        }  // leaklab:toggle
      }

      override func viewDidDisappear() {
        super.viewDidDisappear()
        if mode == .weak {  // leaklab:toggle
          task?.cancel()  // leaklab:weak
        }  // leaklab:toggle
      }
      """#,
    markedLineAction: nil,
    expected: (strong: .leaking("TickerScreen"), weak: .clean),
    makeScreen: { mode, _ in TickerScreen(mode: mode, ticker: PriceTicker()) }
  )
}

/// Publishes prices on a stream that never finishes.
@MainActor
final class PriceTicker {
  let prices: AsyncStream<Int>
  private let continuation: AsyncStream<Int>.Continuation
  private var last = 100

  init() {
    (prices, continuation) = AsyncStream.makeStream(of: Int.self)
  }

  func publish() {
    last += 7
    continuation.yield(last)
  }
}

/// The screen: shows the latest price.
final class TickerScreen: Screen {
  let mode: ScenarioMode
  let ticker: PriceTicker
  let priceLabel = Label("Waiting for prices", identifier: "ticker.price")

  init(mode: ScenarioMode, ticker: PriceTicker) {
    self.mode = mode
    self.ticker = ticker
    super.init(title: "Ticker")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(priceLabel)
    view.addSubview(Button("Publish price") { [weak self] in self?.ticker.publish() })
    startListening()
  }

  func show(_ price: Int) {
    priceLabel.text = "ACME \(price)"
  }

  // leaklab:code begin
  private(set) var task: Task<Void, Never>?

  private func startListening() {
    let prices = ticker.prices
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      task = Task { for await price in prices { self.show(price) } }  // leaklab:strong
    case .weak:  // leaklab:toggle
      task = Task { [weak self] in for await price in prices { self?.show(price) } }  // leaklab:weak
    }  // leaklab:toggle
  }

  override func viewDidDisappear() {
    super.viewDidDisappear()
    if mode == .weak {  // leaklab:toggle
      task?.cancel()  // leaklab:weak
    }  // leaklab:toggle
  }
  // leaklab:code end
}
