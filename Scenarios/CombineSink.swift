import OpenCombine
import ScreenKit

extension Catalogue {
  /// `combine-sink`: a Combine `sink` stored in the screen's `cancellables` captures the screen.
  public static let combineSink = Scenario(
    id: "combine-sink",
    title: "Combine sink stored in cancellables",
    pattern: "publisher.sink { self.… }.store(in: &cancellables): the screen keeps what keeps it",
    actions: [ScenarioAction("Search", "Searches for \"swift\"; the sink shows the results.")],
    whyItLeaks: """
      `store(in: &cancellables)` makes the screen own its subscription, and the subscription owns the \
      `sink` closure, which captures the screen: a cycle. The subscription ends when it is cancelled \
      or the publisher completes, and a screen's search results never complete.
      """,
    fix: "Capture `[weak self]` in the sink: `.sink { [weak self] in self?.show($0) }`.",
    code: #"""
      private var cancellables = Set<AnyCancellable>()

      private func bind() {
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          model.results.sink { self.show($0) }.store(in: &cancellables)  // leaklab:strong
        case .weak:  // leaklab:toggle
          model.results.sink { [weak self] in self?.show($0) }.store(in: &cancellables)  // leaklab:weak
        }  // leaklab:toggle
      }
      """#,
    markedLineAction: nil,
    expected: (strong: .leaking("SearchScreen"), weak: .clean),
    makeScreen: { mode, _ in SearchScreen(mode: mode) }
  )
}

/// The search's state: its results as a publisher (OpenCombine, Combine's API on Linux).
@MainActor
final class SearchModel {
  let results = PassthroughSubject<[String], Never>()

  func search(_ query: String) {
    results.send(["\(query) 6.3", "\(query)-syntax", "\(query)-nio"])
  }
}

/// The screen: a search field's results.
final class SearchScreen: Screen {
  let mode: ScenarioMode
  let model = SearchModel()
  let resultsLabel = Label("No results", identifier: "search.results")

  init(mode: ScenarioMode) {
    self.mode = mode
    super.init(title: "Search")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(resultsLabel)
    view.addSubview(Button("Search") { [weak self] in self?.model.search("swift") })
    bind()
  }

  func show(_ results: [String]) {
    resultsLabel.text = "\(results.count) results: " + results.joined(separator: ", ")
  }

  // leaklab:code begin
  private var cancellables = Set<AnyCancellable>()

  private func bind() {
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      model.results.sink { self.show($0) }.store(in: &cancellables)  // leaklab:strong
    case .weak:  // leaklab:toggle
      model.results.sink { [weak self] in self?.show($0) }.store(in: &cancellables)  // leaklab:weak
    }  // leaklab:toggle
  }
  // leaklab:code end
}
