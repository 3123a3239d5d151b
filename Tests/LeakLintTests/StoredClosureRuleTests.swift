import LeakLint
import Testing

/// `stored-closure`: a closure that self keeps captures self strongly.
@Suite struct StoredClosureRuleTests {
  // MARK: Flagged

  @Test func aClosureStoredInAPropertyThatCapturesSelfIsFlagged() {
    expectFindings(
      """
      final class Player {
        var onFinish: (() -> Void)?
        func start() {
          onFinish = { self.stop() }  // flagged
        }
        func stop() {}
      }
      """, rule: .storedClosure)
  }

  @Test func closuresAppendedToACollectionOrDictionaryAreFlagged() {
    expectFindings(
      """
      final class EventBus {
        var handlers: [() -> Void] = []
        var byName: [String: () -> Void] = [:]
        func wire() {
          handlers.append { self.flush() }  // flagged
          byName["flush"] = { self.flush() }  // flagged
        }
        func flush() {}
      }
      """, rule: .storedClosure)
  }

  @Test func aButtonActionOnAButtonSelfOwnsIsFlagged() {
    expectFindings(
      """
      import UIKit
      final class LoginViewController: UIViewController {
        let button = UIButton()
        override func viewDidLoad() {
          super.viewDidLoad()
          button.addAction(UIAction { _ in self.logIn() }, for: .touchUpInside)  // flagged
        }
        func logIn() {}
      }
      """, rule: .storedClosure)
  }

  @Test func aLocalViewAddedAsASubviewOwnsItsClosureThroughSelf() {
    expectFindings(
      """
      import UIKit
      final class CartViewController: UIViewController {
        override func viewDidLoad() {
          super.viewDidLoad()
          let checkout = UIButton()
          checkout.addAction(UIAction { _ in self.pay() }, for: .touchUpInside)  // flagged
          view.addSubview(checkout)
        }
        func pay() {}
      }
      """, rule: .storedClosure)
  }

  @Test func aClosureMadeAfterGuardLetSelfAndStoredIsFlagged() {
    expectFindings(
      """
      final class PhotoScreen {
        let retry = Retry()
        func load() {
          fetch { [weak self] in
            guard let self else { return }
            self.retry.action = { self.load() }  // flagged
          }
        }
        func fetch(_ done: @escaping () -> Void) {}
      }
      final class Retry { var action: (() -> Void)? }
      """, rule: .storedClosure)
  }

  @Test func aWeakCaptureInsideAStrongOuterClosureStillCapturesSelf() {
    expectFindings(
      """
      final class Ticker {
        var tick: (() -> Void)?
        func start() {
          tick = {  // flagged
            DispatchQueue.main.async { [weak self] in self?.update() }
          }
        }
        func update() {}
      }
      """, rule: .storedClosure)
  }

  @Test func aClosureStoredThroughAnInitializerOfTheLintedCodeIsFlagged() {
    expectFindings(
      """
      struct Route { let handler: (String) -> String }
      final class Server {
        var routes: [Route] = []
        func setUp() {
          routes.append(Route(handler: { self.render($0) }))  // flagged
        }
        func render(_ path: String) -> String { path }
      }
      """, rule: .storedClosure)
  }

  // MARK: Not flagged

  @Test func nonEscapingAndRunOnceClosuresAreNotFlagged() {
    expectFindings(
      """
      import UIKit
      final class ListViewController: UIViewController {
        var items: [Int] = []
        let lock = NSLock()
        func refresh() {
          let doubled = items.map { self.scale($0) }
          items.forEach { self.show($0) }
          lock.withLock { self.items.removeAll() }
          UIView.animate(withDuration: 0.3) { self.view.alpha = 1 }
          DispatchQueue.main.async { self.show(doubled.count) }
          URLSession.shared.dataTask(with: URL(string: "https://example.com")!) { _, _, _ in self.show(0) }.resume()
        }
        func scale(_ value: Int) -> Int { value * 2 }
        func show(_ value: Int) {}
      }
      """)
  }

  @Test func weakAndUnownedCapturesAreNotFlagged() {
    expectFindings(
      """
      final class Player {
        var onFinish: (() -> Void)?
        var onPause: (() -> Void)?
        func start() {
          onFinish = { [weak self] in self?.stop() }
          onPause = { [unowned self] in self.stop() }
        }
        func stop() {}
      }
      """)
  }

  @Test func valueTypesAreNotFlagged() {
    expectFindings(
      """
      struct Counter {
        var count = 0
        var onChange: (() -> Void)?
        mutating func start() {
          onChange = { print(self.count) }
        }
      }
      """)
  }

  @Test func aClosureKeptBySomethingSelfDoesNotOwnIsNotFlagged() {
    expectFindings(
      """
      final class Row {
        weak var delegate: RowDelegate?
        func bind(to model: Model) {
          model.onChange = { self.reload() }
          delegate?.onTap = { self.reload() }
          let local = Model()
          local.onChange = { self.reload() }
        }
        func reload() {}
      }
      final class Model { var onChange: (() -> Void)? }
      final class RowDelegate { var onTap: (() -> Void)? }
      """)
  }

  @Test func aClosureCallingAFunctionThatOnlyRunsItIsNotFlagged() {
    expectFindings(
      """
      final class Loader {
        let cache = Cache()
        func load() {
          cache.read { self.show($0) }
        }
        func show(_ value: String) {}
      }
      final class Cache {
        func read(_ done: (String) -> Void) { done("cached") }
      }
      """)
  }

  @Test func aStoredClosureClearedInATeardownIsNotFlagged() {
    expectFindings(
      """
      final class Coordinator {
        var onFinish: (() -> Void)?
        func start() { onFinish = { self.finish() } }
        func finish() { onFinish = nil }
      }
      """)
  }

  @Test func aClosureThatCapturesOnlyOtherObjectsIsNotFlagged() {
    expectFindings(
      """
      final class Screen {
        var onTap: (() -> Void)?
        let label = Label()
        func wire() {
          let label = self.label
          onTap = { label.text = "tapped" }
        }
      }
      final class Label { var text = "" }
      """)
  }

  @Test func aCallbackKeptOnlyUntilItFiresIsNotFlagged() {
    expectFindings(
      """
      final class Future {
        private var callbacks: [() -> Void] = []
        private var value: Int?
        func whenComplete(_ callback: @escaping () -> Void) {
          callbacks.append(callback)
        }
        func succeed(_ value: Int) {
          self.value = value
          let pending = callbacks
          callbacks = []
          pending.forEach { $0() }
        }
        func chain() {
          whenComplete { print(self.value ?? 0) }
        }
      }
      """)
  }
}
