import ScreenKit

extension Catalogue {
  /// `closure-capture`: a use case hands its own method to a service that keeps it.
  public static let closureCapture = Scenario(
    id: "closure-capture",
    title: "Method passed as a completion handler",
    pattern: "service.run(completion: handleResponse) stores a closure that captures self",
    actions: [ScenarioAction("Load feed", "The use case asks the service for the feed.")],
    whyItLeaks: """
      Passing a method as a closure (`handleResponse`) captures `self` strongly, although no `self` \
      is written. The service keeps the completion, the use case keeps the service: a cycle. \
      The screen goes away; its use case and service never do.
      """,
    fix: "Pass a closure that captures weakly: `service.run { [weak self] in self?.handleResponse($0) }`.",
    code: #"""
      @MainActor
      final class FeedService {
        private var completion: (([String]) -> Void)?

        func run(completion: @escaping ([String]) -> Void) {
          self.completion = completion  // kept to deliver live updates
          completion(["Ada joined", "Grace posted"])
        }
      }

      extension LoadFeedUseCase {
        func execute() {
          switch mode {  // leaklab:toggle
          case .strong:  // leaklab:toggle
            service.run(completion: handleResponse)  // leaklab:strong
          case .weak:  // leaklab:toggle
            service.run { [weak self] in self?.handleResponse($0) }  // leaklab:weak
          }  // leaklab:toggle
        }

        private func handleResponse(_ items: [String]) {
          output?.show(items)
        }
      }
      """#,
    expected: (strong: .leaking("LoadFeedUseCase", "FeedService"), weak: .clean),
    makeScreen: { mode, _ in FeedScreen(useCase: LoadFeedUseCase(service: FeedService(), mode: mode)) }
  )
}

/// The screen: shows the feed, owns the use case.
final class FeedScreen: Screen, OwnedPartsProviding, LoadFeedOutput {
  let useCase: LoadFeedUseCase
  let feedLabel = Label("Feed: not loaded", identifier: "feed")

  init(useCase: LoadFeedUseCase) {
    self.useCase = useCase
    super.init(title: "Feed")
    useCase.output = self
  }

  var ownedParts: [AnyObject] { [useCase, useCase.service] }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(feedLabel)
    view.addSubview(Button("Load feed") { [weak self] in self?.useCase.execute() })
  }

  func show(_ items: [String]) {
    feedLabel.text = "Feed: " + items.joined(separator: ", ")
  }
}

/// Where the use case sends what it loaded.
@MainActor
protocol LoadFeedOutput: AnyObject {
  func show(_ items: [String])
}

/// Loads the feed through an injected service and hands it to its output.
@MainActor
final class LoadFeedUseCase {
  let service: FeedService
  let mode: ScenarioMode
  weak var output: (any LoadFeedOutput)?

  init(service: FeedService, mode: ScenarioMode) {
    self.service = service
    self.mode = mode
  }
}

// leaklab:code begin
@MainActor
final class FeedService {
  private var completion: (([String]) -> Void)?

  func run(completion: @escaping ([String]) -> Void) {
    self.completion = completion  // kept to deliver live updates
    completion(["Ada joined", "Grace posted"])
  }
}

extension LoadFeedUseCase {
  func execute() {
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      service.run(completion: handleResponse)  // leaklab:strong
    case .weak:  // leaklab:toggle
      service.run { [weak self] in self?.handleResponse($0) }  // leaklab:weak
    }  // leaklab:toggle
  }

  private func handleResponse(_ items: [String]) {
    output?.show(items)
  }
}
// leaklab:code end
