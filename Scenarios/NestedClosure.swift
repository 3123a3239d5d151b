import ScreenKit

extension Catalogue {
  /// `nested-closure`: an inner closure re-captures the strong `self` of a `[weak self]` outer one.
  public static let nestedClosure = Scenario(
    id: "nested-closure",
    title: "Nested closure re-capturing self",
    pattern: "outer { [weak self] in guard let self … inner = { self.… } } with inner stored",
    actions: [
      ScenarioAction("Load photo", "Loads a photo; the completion sets up the Retry button."),
      ScenarioAction("Retry", "Runs the inner closure the Retry button stores: loads the photo again."),
    ],
    whyItLeaks: """
      `[weak self]` on the outer closure does not reach the closures made inside it: after \
      `guard let self`, `self` is a strong local, and an inner closure captures that. Stored in a \
      button the screen owns, the inner closure closes a cycle.
      """,
    fix: "Give the stored inner closure its own `[weak self]`.",
    code: #"""
      func loadPhoto() {
        loads += 1
        loader.load("sunset.jpg") { [weak self] image in
          guard let self else { return }
          self.photoLabel.text = image
          switch self.mode {  // leaklab:toggle
          case .strong:  // leaklab:toggle
            self.retryButton.action = { self.loadPhoto() }  // leaklab:strong
          case .weak:  // leaklab:toggle
            self.retryButton.action = { [weak self] in self?.loadPhoto() }  // leaklab:weak
          }  // leaklab:toggle
        }
      }
      """#,
    expected: (strong: .leaking("PhotoScreen"), weak: .clean),
    makeScreen: { mode, environment in
      PhotoScreen(mode: mode, loader: ImageLoader(mainQueue: environment.mainQueue))
    }
  )
}

/// Loads images; completes on the next turn of the main queue.
@MainActor
final class ImageLoader {
  let mainQueue: MainQueue

  init(mainQueue: MainQueue) {
    self.mainQueue = mainQueue
  }

  func load(_ name: String, completion: @escaping @MainActor @Sendable (String) -> Void) {
    mainQueue.async { completion("\(name) (2 MB)") }
  }
}

/// The screen: shows a photo and a Retry button.
final class PhotoScreen: Screen {
  let mode: ScenarioMode
  let loader: ImageLoader
  let photoLabel = Label("No photo", identifier: "photo.status")
  let retryButton = Button("Retry", identifier: "photo.retry")
  private(set) var loads = 0

  init(mode: ScenarioMode, loader: ImageLoader) {
    self.mode = mode
    self.loader = loader
    super.init(title: "Photo")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(photoLabel)
    view.addSubview(Button("Load photo") { [weak self] in self?.loadPhoto() })
    view.addSubview(retryButton)
  }

  // leaklab:code begin
  func loadPhoto() {
    loads += 1
    loader.load("sunset.jpg") { [weak self] image in
      guard let self else { return }
      self.photoLabel.text = image
      switch self.mode {  // leaklab:toggle
      case .strong:  // leaklab:toggle
        self.retryButton.action = { self.loadPhoto() }  // leaklab:strong
      case .weak:  // leaklab:toggle
        self.retryButton.action = { [weak self] in self?.loadPhoto() }  // leaklab:weak
      }  // leaklab:toggle
    }
  }
  // leaklab:code end
}
