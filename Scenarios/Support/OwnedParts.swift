import LeakDetector
import ScreenKit

/// A screen that owns objects besides its views and child screens — a use
/// case, a presenter, a service — that must deallocate with it.
///
/// A screen check that only looks at screens and views misses a presenter
/// stuck in a cycle of its own (the screen itself goes away). Listing the parts
/// lets the detector expect them too, as MLeaksFinder walks a view
/// controller's child objects.
///
/// ```swift
/// final class FeedScreen: Screen, OwnedPartsProviding {
///   let useCase: LoadFeedUseCase
///   var ownedParts: [AnyObject] { [useCase, useCase.service] }
/// }
/// ```
@MainActor
public protocol OwnedPartsProviding: AnyObject {
  /// The objects that must go away with this screen.
  var ownedParts: [AnyObject] { get }
}

/// The tree a closed scenario screen hands to the detector.
public enum ScenarioTree {
  /// ScreenKit's children (child screens, presented screen, views) plus a
  /// screen's ``OwnedPartsProviding/ownedParts``.
  @MainActor
  public static func children(of node: AnyObject) -> [AnyObject] {
    var result = DeallocationChecker.treeChildren(of: node)
    if let owner = node as? any OwnedPartsProviding { result += owner.ownedParts }
    return result
  }
}

extension DeallocationChecker {
  /// A checker that hands closed screens — with their owned parts — to `detector`.
  ///
  /// ```swift
  /// let window = Window(checker: .scenarios(detector: detector))
  /// ```
  /// `live` also remembers each screen and owned part handed over, to count
  /// what is still alive across runs.
  public static func scenarios(detector: LeakDetector, live: LiveInstances? = nil) -> DeallocationChecker {
    DeallocationChecker(
      expectTree: { root, _ in
        live?.remember(root)
        detector.expectDeallocation(ofTree: root) { node in
          let children = ScenarioTree.children(of: node)
          if let live { children.forEach(live.remember) }
          return children
        }
      },
      withdraw: { detector.withdrawExpectations(for: $0) })
  }
}
