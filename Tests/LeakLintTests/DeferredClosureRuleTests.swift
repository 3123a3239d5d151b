import LeakLint
import Testing

/// `unowned-capture` one call away: an `[unowned self]` closure given to a
/// function that hands it on to something that runs it later, or to a URL
/// session request; and the functions that do not (`[unowned self]` is right there).
@Suite struct DeferredClosureRuleTests {
  static func screen(_ load: String) -> String {
    """
    import UIKit
    final class CoverLoader {
      private var pending: [(UIImage?) -> Void] = []
      func download(_ url: URL, completion: @escaping (UIImage?) -> Void) {
        URLSession.shared.dataTask(with: url) { data, _, _ in
          DispatchQueue.main.async { completion(data.flatMap(UIImage.init(data:))) }
        }.resume()
      }
      func retry(after delay: TimeInterval, _ work: @escaping () -> Void) {
        DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: work)
      }
      func later(_ work: @escaping () -> Void) { retry(after: 1) { work() } }
      func cached(_ completion: (UIImage?) -> Void) { completion(nil) }
      func enqueue(_ completion: @escaping (UIImage?) -> Void) { pending.append(completion) }
    }
    final class AlbumViewController: UIViewController {
      private let loader = CoverLoader()
      private let coverView = UIImageView()
      func load(_ url: URL) {
        \(load)
      }
    }
    """
  }

  @Test func anUnownedCompletionAFunctionRunsFromARequestIsFlagged() {
    expectFindings(
      Self.screen(
        "loader.download(url) { [unowned self] image in self.coverView.image = image }  // flagged"),
      rule: .unownedCapture)
  }

  @Test func anUnownedBlockAFunctionGivesAsyncAfterIsFlaggedThroughAnotherFunction() {
    expectFindings(
      Self.screen(
        """
        loader.retry(after: 2) { [unowned self] in self.coverView.image = nil }  // flagged
            loader.later { [unowned self] in self.coverView.isHidden = true }  // flagged
        """), rule: .unownedCapture)
  }

  @Test func anUnownedCompletionOfARequestIsFlagged() {
    expectFindings(
      Self.screen(
        """
        URLSession.shared.dataTask(with: url) { [unowned self] data, _, _ in  // flagged
              self.coverView.image = data.flatMap(UIImage.init(data:))
            }.resume()
        """), rule: .unownedCapture)
  }

  @Test func aFunctionThatOnlyCallsOrKeepsItsClosureDefersNothing() {
    expectFindings(
      Self.screen(
        """
        loader.cached { [unowned self] image in self.coverView.image = image }
            loader.enqueue { [unowned self] image in self.coverView.image = image }
        """))
  }

  @Test func aWeakCompletionIsNotFlagged() {
    expectFindings(
      Self.screen("loader.download(url) { [weak self] image in self?.coverView.image = image }"))
  }
}
