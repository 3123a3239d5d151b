import ScreenKit

extension Catalogue {
  /// `strong-delegate`: a child component that owns its delegate.
  public static let strongDelegate = Scenario(
    id: "strong-delegate",
    title: "Strong delegate",
    pattern: "a child component holds `var delegate` back to the screen that owns it",
    actions: [ScenarioAction("Pay", "The payment form tells its delegate, the screen.")],
    whyItLeaks: """
      The screen owns the form (through its view tree) and the form owns its delegate, the \
      screen: a cycle. Neither can deallocate first, so both stay.
      """,
    fix: "Declare the delegate `weak var delegate: (any PaymentFormDelegate)?`.",
    code: #"""
      @MainActor
      protocol PaymentFormDelegate: AnyObject {
        func paymentFormDidSubmit(_ form: PaymentForm)
      }

      final class StrongDelegatePaymentForm: PaymentForm {  // leaklab:strong
        var delegate: (any PaymentFormDelegate)?  // leaklab:strong
        override var currentDelegate: (any PaymentFormDelegate)? { delegate }  // leaklab:strong
      }  // leaklab:strong

      final class WeakDelegatePaymentForm: PaymentForm {  // leaklab:weak
        weak var delegate: (any PaymentFormDelegate)?  // leaklab:weak
        override var currentDelegate: (any PaymentFormDelegate)? { delegate }  // leaklab:weak
      }  // leaklab:weak
      """#,
    markedLineAction: nil,
    expected: (strong: .leaking("CheckoutScreen"), weak: .clean),
    makeScreen: { mode, _ in CheckoutScreen(mode: mode) }
  )
}

/// The screen: shows the payment form and the result.
final class CheckoutScreen: Screen, PaymentFormDelegate {
  let mode: ScenarioMode
  let statusLabel = Label("Not paid", identifier: "checkout.status")

  init(mode: ScenarioMode) {
    self.mode = mode
    super.init(title: "Checkout")
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(statusLabel)
    switch mode {
    case .strong:
      let form = StrongDelegatePaymentForm()
      form.delegate = self
      view.addSubview(form)
    case .weak:
      let form = WeakDelegatePaymentForm()
      form.delegate = self
      view.addSubview(form)
    }
  }

  func paymentFormDidSubmit(_ form: PaymentForm) {
    statusLabel.text = "Paid"
  }
}

/// The payment form, a child component of the checkout screen. The two
/// subclasses below differ only in how they hold the delegate; the screen
/// makes one or the other by mode.
class PaymentForm: View {
  init() {
    super.init(identifier: "payment-form")
    addSubview(Label("Card •••• 4242"))
    addSubview(Button("Pay") { [weak self] in self?.payTapped() })
  }

  /// The delegate, however the subclass holds it.
  var currentDelegate: (any PaymentFormDelegate)? { nil }

  private func payTapped() {
    currentDelegate?.paymentFormDidSubmit(self)
  }
}

// leaklab:code begin
@MainActor
protocol PaymentFormDelegate: AnyObject {
  func paymentFormDidSubmit(_ form: PaymentForm)
}

final class StrongDelegatePaymentForm: PaymentForm {  // leaklab:strong
  var delegate: (any PaymentFormDelegate)?  // leaklab:strong
  override var currentDelegate: (any PaymentFormDelegate)? { delegate }  // leaklab:strong
}  // leaklab:strong

final class WeakDelegatePaymentForm: PaymentForm {  // leaklab:weak
  weak var delegate: (any PaymentFormDelegate)?  // leaklab:weak
  override var currentDelegate: (any PaymentFormDelegate)? { delegate }  // leaklab:weak
}  // leaklab:weak
// leaklab:code end
