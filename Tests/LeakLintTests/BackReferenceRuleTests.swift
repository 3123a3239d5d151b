import LeakLint
import Testing

/// `strong-back-reference`: decided by who owns whom, never by the property's name.
@Suite struct BackReferenceRuleTests {
  @Test func aStrongDelegateToTheScreenThatAddsTheFormIsFlagged() {
    expectFindings(
      """
      import UIKit
      protocol PaymentFormDelegate: AnyObject { func didPay() }
      final class PaymentForm: UIView {
        var delegate: PaymentFormDelegate?  // flagged
      }
      final class CheckoutViewController: UIViewController, PaymentFormDelegate {
        override func viewDidLoad() {
          super.viewDidLoad()
          let form = PaymentForm()
          form.delegate = self
          view.addSubview(form)
        }
        func didPay() {}
      }
      """, rule: .strongBackReference)
  }

  @Test func aBackReferenceWithAnyNameIsFlaggedByOwnership() {
    expectFindings(
      """
      final class Interactor {
        var listener: (any InteractorOutput)?  // flagged
      }
      protocol InteractorOutput: AnyObject {}
      final class Presenter: InteractorOutput {
        let interactor: Interactor
        init(interactor: Interactor) {
          self.interactor = interactor
          interactor.listener = self
        }
      }
      """, rule: .strongBackReference)
  }

  @Test func aPropertyNoCodeSetsToItsOwnerIsNotFlagged() {
    expectFindings(
      """
      final class Interactor {
        var listener: (any InteractorOutput)?
      }
      protocol InteractorOutput: AnyObject {}
      final class Presenter: InteractorOutput {
        let interactor: Interactor
        init(interactor: Interactor) { self.interactor = interactor }
      }
      """)
  }

  @Test func viewsHeldAsUIViewOutletsOrTheirOwnSubviewsAreNotFlagged() {
    expectFindings(
      """
      import UIKit
      final class ChevronView: UIView { private let shadowView = UIView() }
      final class ContainerView: UIView {
        var contentView: UIView?
        @IBOutlet var titleLabel: UILabel!
      }
      final class CardView: UIView {
        private let container = ContainerView()
        func setUp() { container.contentView = ChevronView() }
      }
      """)
  }

  @Test func aParentPassedToItsChildsInitializerIsFlagged() {
    expectFindings(
      """
      final class AppCoordinator {
        private var child: ChildCoordinator?
        func start() { child = ChildCoordinator(parent: self) }
      }
      final class ChildCoordinator {
        let parent: AppCoordinator  // flagged
        init(parent: AppCoordinator) { self.parent = parent }
      }
      """, rule: .strongBackReference)
  }

  @Test func aHandlerKeepingItsSwiftNIOContextIsFlagged() {
    expectFindings(
      """
      import NIOCore
      final class EchoHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private var context: ChannelHandlerContext?  // flagged
        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
      }
      final class CleanHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private var context: ChannelHandlerContext?
        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
        func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }
      }
      """, rule: .strongBackReference)
  }

  @Test func aChildHoldingItsParentInATreeIsFlagged() {
    expectFindings(
      """
      final class Node {
        var children: [Node] = []
        var parent: Node?  // flagged
        func add(_ child: Node) {
          children.append(child)
          child.parent = self
        }
      }
      """, rule: .strongBackReference)
  }

  @Test func aStrongDelegateNobodyOwningTheHolderIsNotFlagged() {
    expectFindings(
      """
      protocol LoggerDelegate: AnyObject { func didLog() }
      final class Logger {
        var delegate: LoggerDelegate?
      }
      final class Console: LoggerDelegate {
        func didLog() {}
      }
      """)
  }

  @Test func weakDelegatesValueTypesAndForwardReferencesAreNotFlagged() {
    expectFindings(
      """
      import UIKit
      protocol FormDelegate: AnyObject {}
      final class Form: UIView {
        weak var delegate: FormDelegate?
        var dataSource: Settings?
        var style: Style?
      }
      struct Style { var color = 0 }
      final class Settings {}
      final class Screen: UIViewController, FormDelegate {
        var form: Form?
        let settings = Settings()
        override func viewDidLoad() {
          let form = Form()
          form.delegate = self
          form.dataSource = settings
          view.addSubview(form)
          self.form = form
        }
      }
      """)
  }

  @Test func aLinkedListsNextIsNotFlagged() {
    expectFindings(
      """
      final class ListNode {
        var value = 0
        var next: ListNode?
      }
      """)
  }

  @Test func aBackReferenceClearedByHandIsNotFlagged() {
    expectFindings(
      """
      protocol Handler: AnyObject {}
      final class Context {
        let handler: Handler
        init(handler: Handler) { self.handler = handler }
      }
      final class EchoHandler: Handler {
        var context: Context?
        func handlerAdded(context: Context) { self.context = context }
        func handlerRemoved(context: Context) { self.context = nil }
      }
      """)
  }

  @Test func aBackReferenceTheOwnerClearsIsNotFlagged() {
    expectFindings(
      """
      protocol ParserDelegate: AnyObject {}
      final class Parser {
        var delegate: ParserDelegate!
      }
      final class Decoder: ParserDelegate {
        let parser = Parser()
        func added() { parser.delegate = self }
        func removed() { self.parser.delegate = nil }
      }
      """)
  }

  @Test func typesOfTheSameNameNestedInDifferentTypesAreNotMerged() {
    expectFindings(
      """
      enum Tree {
        final class Storage { var children: [Node] = [] }
        final class Node { var storage: Storage? }
      }
      enum Cache {
        final class Storage {}
      }
      """)
  }

  @Test func aChildItsOwnerRemovesFromADictionaryWhenItClosesIsNotFlagged() {
    expectFindings(
      """
      final class Multiplexer {
        private var channels: [UInt32: ChildChannel] = [:]
        func open(id: UInt32) {
          let channel = ChildChannel(multiplexer: self)
          self.channels[id] = channel
        }
        func childClosed(id: UInt32) { self.channels.removeValue(forKey: id) }
      }
      final class ChildChannel {
        private let multiplexer: Multiplexer
        init(multiplexer: Multiplexer) { self.multiplexer = multiplexer }
      }
      """)
  }

  @Test func aChildItsOwnerKeepsInADictionaryForGoodIsFlagged() {
    expectFindings(
      """
      final class Multiplexer {
        private var channels: [UInt32: ChildChannel] = [:]
        func open(id: UInt32) {
          let channel = ChildChannel(multiplexer: self)
          self.channels[id] = channel
        }
      }
      final class ChildChannel {
        private let multiplexer: Multiplexer  // flagged
        init(multiplexer: Multiplexer) { self.multiplexer = multiplexer }
      }
      """, rule: .strongBackReference)
  }

  @Test func aStoreThroughAValueOfUnknownTypeNamesNoOwnerWhenManyTypesHaveThatProperty() {
    expectFindings(
      """
      final class Screen {
        let timer = Ticker()
        func start(_ box: Any) { (box as AnyObject).handler = self }
      }
      final class Ticker { var handler: Screen? }
      final class Other { var handler: Screen? }
      """)
  }

  @Test func aChildMadeByAFactoryOfTheLintedCodeIsTheTypeTheFactoryReturns() {
    expectFindings(
      """
      protocol Flow: AnyObject { var parent: Orders? { get set } }
      class Coordinator { var children: [Coordinator] = [] }
      final class Orders: Coordinator {
        func makePayment() -> any Flow { Payment() }
        func showPayment() {
          let child = makePayment()
          child.parent = self
          children.append(child as! Coordinator)
        }
      }
      final class Payment: Coordinator, Flow {
        var parent: Orders?  // flagged
      }
      final class Profile: Coordinator {}
      final class Settings: Coordinator {}
      """, rule: .strongBackReference)
  }

  @Test func aValueAFunctionReturnsAsAGenericOrAFrameworkTypeIsNotTypedByIt() {
    expectFindings(
      """
      final class Orders {
        var children: [AnyObject] = []
        func makePayment() -> Result<Payment, Error> { .success(Payment()) }
        func makeView() -> UIView { UIView() }
        func showPayment() {
          let child = makePayment()
          let view = makeView()
          children.append(child)
          children.append(view)
        }
      }
      final class Payment { var parent: Orders? }
      """)
  }
}
