import ScreenKit

extension Catalogue {
  /// `abandoned-memory`: a screen registers itself in a global list and is never removed.
  public static let abandonedMemory = Scenario(
    id: "abandoned-memory",
    title: "Screen kept in a global list",
    pattern: "OpenScreens.register(self) in viewDidAppear, never unregistered: no cycle, a global keeps it",
    actions: [ScenarioAction("Read on", "Shows the next paragraph of the article.")],
    whyItLeaks: """
      There is no cycle: a global list keeps every screen that ever appeared, for analytics. Nothing \
      ever takes a screen out, so each open adds one for the life of the app — abandoned memory, which \
      a cycle search never finds. Open the scenario again and again: the overlay counts the articles \
      still alive; `leaklab heap --diff-from` shows what grew and the path from the global.
      """,
    fix:
      "Unregister when the screen goes away, in `viewDidDisappear`: `deinit` never runs while the list keeps it.",
    code: #"""
      override func viewDidAppear() {
        super.viewDidAppear()
        OpenScreens.register(self)  // for analytics: which screens are open
      }

      override func viewDidDisappear() {
        super.viewDidDisappear()
        if mode == .weak {  // leaklab:toggle
          OpenScreens.unregister(self)  // leaklab:weak
        }  // leaklab:toggle
      }

      isolated deinit {
        if mode == .strong {  // leaklab:toggle
          OpenScreens.unregister(self)  // never runs: the list keeps self  // leaklab:strong
        }  // leaklab:toggle
      }
      """#,
    markedLineAction: nil,
    expected: (strong: .leaking("ArticleScreen"), weak: .clean),
    makeScreen: { mode, _ in ArticleScreen(mode: mode) }
  )
}

/// Every screen on display, for analytics: a list in a global, as apps keep one.
@MainActor
enum OpenScreens {
  private(set) static var screens: [Screen] = []

  static func register(_ screen: Screen) { screens.append(screen) }

  static func unregister(_ screen: Screen) { screens.removeAll { $0 === screen } }
}

/// The screen: an article, read a paragraph at a time.
final class ArticleScreen: Screen {
  let mode: ScenarioMode
  let paragraphLabel = Label("Paragraph 1 of 5", identifier: "article.paragraph")
  private(set) var paragraph = 1

  init(mode: ScenarioMode) {
    self.mode = mode
    super.init(title: "Article")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(paragraphLabel)
    view.addSubview(Button("Read on") { [weak self] in self?.readOn() })
  }

  func readOn() {
    paragraph = min(paragraph + 1, 5)
    paragraphLabel.text = "Paragraph \(paragraph) of 5"
  }

  // leaklab:code begin
  override func viewDidAppear() {
    super.viewDidAppear()
    OpenScreens.register(self)  // for analytics: which screens are open
  }

  override func viewDidDisappear() {
    super.viewDidDisappear()
    if mode == .weak {  // leaklab:toggle
      OpenScreens.unregister(self)  // leaklab:weak
    }  // leaklab:toggle
  }

  isolated deinit {
    if mode == .strong {  // leaklab:toggle
      OpenScreens.unregister(self)  // never runs: the list keeps self  // leaklab:strong
    }  // leaklab:toggle
  }
  // leaklab:code end
}
