import ScreenKit

/// How many objects of each type, handed to a leak detector by any run, are
/// still alive: the leaks that pile up when a leaky screen is opened again
/// and again (`CartScreen alive: 20`).
///
/// Screens and the parts they own are remembered weakly when their screen
/// closes (views are not: they go with their screen). Share one registry
/// between the harnesses of an app's runs.
///
/// ```swift
/// let live = LiveInstances()
/// let harness = ScenarioHarness(scheduler: scheduler, liveInstances: live)
/// // … open, close, twenty times
/// live.counts()  // ["CartScreen": 20]
/// ```
@MainActor
public final class LiveInstances {
  private final class Entry {
    let typeName: String
    weak var object: AnyObject?

    init(_ object: AnyObject) {
      typeName = String(describing: type(of: object))
      self.object = object
    }
  }

  private var entries: [Entry] = []

  /// An empty registry.
  public init() {}

  /// Remembers `object` (weakly) if it is a screen or a screen's part, not a view.
  public func remember(_ object: AnyObject) {
    guard !(object is View), !entries.contains(where: { $0.object === object }) else { return }
    entries.append(Entry(object))
  }

  /// The live count of each type remembered, types with none left out.
  public func counts() -> [String: Int] {
    entries.removeAll { $0.object == nil }
    return Dictionary(entries.map { ($0.typeName, 1) }, uniquingKeysWith: +)
  }
}
