import LeakLint
import Testing

/// `method-reference` and `lazy-closure`: self captured although no closure
/// says `self`, or captured by a closure made after init.
@Suite struct ImplicitCaptureRuleTests {
  // MARK: method-reference

  @Test func aMethodPassedToAServiceSelfOwnsIsFlagged() {
    expectFindings(
      """
      final class FeedService {
        private var completion: (([String]) -> Void)?
        func run(completion: @escaping ([String]) -> Void) { self.completion = completion }
      }
      final class LoadFeed {
        let service = FeedService()
        func execute() {
          service.run(completion: handleResponse)  // flagged
        }
        private func handleResponse(_ items: [String]) {}
      }
      """, rule: .methodReference)
  }

  @Test func aMethodStoredWithAnExplicitSelfIsFlagged() {
    expectFindings(
      """
      final class Refresher {
        var action: (() -> Void)?
        func start() {
          action = self.refresh  // flagged
        }
        func refresh() {}
      }
      """, rule: .methodReference)
  }

  @Test func aMethodPassedToAFunctionThatOnlyCallsItIsNotFlagged() {
    expectFindings(
      """
      final class FeedService {
        func run(completion: ([String]) -> Void) { completion([]) }
      }
      final class LoadFeed {
        let service = FeedService()
        func execute() {
          service.run(completion: handleResponse)
          [["a"]].forEach(handleResponse)
        }
        private func handleResponse(_ items: [String]) {}
      }
      """)
  }

  @Test func aMethodPassedToAServiceSelfDoesNotOwnIsNotFlagged() {
    expectFindings(
      """
      final class FeedService {
        static let shared = FeedService()
        private var completion: (([String]) -> Void)?
        func run(completion: @escaping ([String]) -> Void) { self.completion = completion }
      }
      final class LoadFeed {
        func execute(with service: FeedService) {
          let temporary = FeedService()
          temporary.run(completion: handleResponse)
        }
        private func handleResponse(_ items: [String]) {}
      }
      """)
  }

  // MARK: lazy-closure

  @Test func aLazyClosurePropertyCapturingSelfIsFlagged() {
    expectFindings(
      """
      final class Cart {
        let currency = "EUR"
        lazy var describe: (Int) -> String = { count in  // flagged
          "\\(count) items in \\(self.currency)"
        }
        lazy var handler: () -> Void = refresh  // flagged
        func refresh() {}
      }
      """, rule: .lazyClosure)
  }

  @Test func aLazyPropertyMadeByAClosureRunOnceIsNotFlagged() {
    expectFindings(
      """
      import UIKit
      final class ProfileViewController: UIViewController {
        lazy var nameLabel: UILabel = {
          let label = UILabel()
          label.text = self.title
          return label
        }()
        lazy var weakDescribe: () -> String = { [weak self] in self?.title ?? "" }
        lazy var unownedDescribe: () -> String = { [unowned self] in self.title ?? "" }
      }
      """)
  }

  @Test func aPropertyOfTheSuperclassNamedLikeADelegateCallbackIsNotAMethodReference() {
    expectFindings(
      """
      import AppKit
      final class SharingDelegate { init(_ window: NSWindow?) {} }
      final class MainWindowController: NSWindowController, NSWindowDelegate {
        private var sharing: SharingDelegate?
        override func windowDidLoad() {
          sharing = SharingDelegate(self.window)
        }
        func window(_ window: NSWindow, willEncodeRestorableState coder: NSCoder) {}
      }
      """)
  }
}
