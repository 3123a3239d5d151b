import LeakDetector

/// What the detector checked after a close, once the grace delay had passed:
/// the log's `checked` line and the overlay's verdict for a clean run.
///
/// ```swift
/// RunCheck(name: "FeedScreen (+5 more)", objects: 6, alive: 0).summary
/// // "FeedScreen (+5 more): all deallocated"
/// ```
public struct RunCheck: Equatable, Sendable {
  /// The first object's type and how many more: `FeedScreen (+5 more)`.
  public var name: String
  /// How many objects were checked.
  public var objects: Int
  /// How many of them were still alive.
  public var alive: Int

  /// Creates a check result.
  public init(name: String, objects: Int, alive: Int) {
    self.name = name
    self.objects = objects
    self.alive = alive
  }

  /// The check a detector's `checked` event reports; `nil` for other events.
  public init?(_ event: LeakEvent) {
    guard event.kind == .checked, let check = event.check else { return nil }
    let more = check.objects > 1 ? " (+\(check.objects - 1) more)" : ""
    self.init(name: event.typeName + more, objects: check.objects, alive: check.alive)
  }

  /// Whether everything checked had deallocated.
  public var allDeallocated: Bool { alive == 0 }

  /// `FeedScreen (+5 more): all deallocated` or `AlertController (+3 more): 2 of 4 still alive`.
  public var summary: String {
    if allDeallocated { return "\(name): " + (objects == 1 ? "deallocated" : "all deallocated") }
    return "\(name): \(alive) of \(objects) still alive"
  }
}
