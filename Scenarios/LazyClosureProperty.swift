import ScreenKit

extension Catalogue {
  /// `lazy-closure-property`: a `lazy var` closure that references `self`.
  public static let lazyClosureProperty = Scenario(
    id: "lazy-closure-property",
    title: "Lazy closure property",
    pattern: "lazy var describe: (Int) -> String = { … self.… }",
    actions: [ScenarioAction("Add item", "Adds an item; the lazy closure formats the total.")],
    whyItLeaks: """
      A `lazy var` closure may use `self` without ceremony because it is made after `init`. It is \
      still a closure the screen stores: from its first use on, it captures the screen that owns it.
      """,
    fix: "Capture `[weak self]` (or `[unowned self]`) in the lazy closure.",
    code: #"""
      lazy var describe: (Int) -> String =
        if mode == .strong {  // leaklab:toggle
          { count in "Items: \(count), \(count * 5) \(self.currency)" }  // leaklab:strong
        } else {  // leaklab:toggle
          { [weak self] count in "Items: \(count), \(count * 5) \(self?.currency ?? "")" }  // leaklab:weak
        }  // leaklab:toggle
      """#,
    expected: (strong: .leaking("CartScreen"), weak: .clean),
    makeScreen: { mode, _ in CartScreen(mode: mode) }
  )
}

/// The screen: a cart that counts items.
final class CartScreen: Screen {
  let mode: ScenarioMode
  let currency = "EUR"
  let totalLabel = Label("Cart is empty", identifier: "cart.total")
  private(set) var items = 0

  init(mode: ScenarioMode) {
    self.mode = mode
    super.init(title: "Cart")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(totalLabel)
    view.addSubview(Button("Add item") { [weak self] in self?.addItem() })
  }

  func addItem() {
    items += 1
    totalLabel.text = describe(items)
  }

  // leaklab:code begin
  lazy var describe: (Int) -> String =
    if mode == .strong {  // leaklab:toggle
      { count in "Items: \(count), \(count * 5) \(self.currency)" }  // leaklab:strong
    } else {  // leaklab:toggle
      { [weak self] count in "Items: \(count), \(count * 5) \(self?.currency ?? "")" }  // leaklab:weak
    }  // leaklab:toggle
  // leaklab:code end
}
