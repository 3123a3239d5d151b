/// Where to look on a retain cycle or a path from a root, as LeakCanary's
/// leak traces say it: each object on it is expected alive (a root, a
/// singleton, a running event loop), expected gone (a screen seen closed, a
/// member of a cycle nothing reachable holds, a type whose count only
/// grows) or unknown, with the reason; and the references to look at — on a
/// path, those between the last object expected alive and the first
/// expected gone; on a cycle, the one to break.
///
/// Every view reads traces here: `leaklab leaks` (its kinds), the app's
/// drawings and explain view, `leaklab explain`.
///
/// ```swift
/// let reading = TraceReading(rootPath: path, expectedGone: { $0 == closedScreen ? "closed 1.0 s ago" : nil })
/// for (object, expectation) in zip(path.objects, reading.objects) { print(object.name, expectation) }
/// reading.suspects  // [1, 2]: indices into path.steps
/// ```
public struct TraceReading: Sendable, Hashable {
  /// What is expected of one object on the trace.
  public enum Expectation: Sendable, Hashable, CustomStringConvertible {
    /// It should be alive, and why (`a root: global auditTrail`).
    case alive(String)
    /// It should be gone, and why (`closed 1.0 s ago`).
    case gone(String)
    /// Nothing says.
    case unknown

    /// `expected alive: a root`, `expected gone: closed 1.0 s ago`, `unknown`.
    public var description: String {
      switch self {
      case .alive(let why): "expected alive: \(why)"
      case .gone(let why): "expected gone: \(why)"
      case .unknown: "unknown"
      }
    }

    /// `alive`, `gone` or `unknown`: the JSON's word.
    public var word: String {
      switch self {
      case .alive: "alive"
      case .gone: "gone"
      case .unknown: "unknown"
      }
    }

    /// The reason, when there is one.
    public var reason: String? {
      switch self {
      case .alive(let why), .gone(let why): why
      case .unknown: nil
      }
    }
  }

  /// One per object of the trace: its start, then each step's target (a
  /// cycle's last step returns to its start and adds none).
  public var objects: [Expectation]
  /// The steps to look at, as indices into the trace's steps, in order.
  public var suspects: [Int]

  /// A reading made elsewhere.
  public init(objects: [Expectation], suspects: [Int]) {
    self.objects = objects
    self.suspects = suspects
  }

  /// Reads a path from a root to an object: the root and what lives as long
  /// as the process are expected alive, what `expectedGone` names is
  /// expected gone. Objects before the last one expected alive are expected
  /// alive too, objects after the first one expected gone are expected gone
  /// too (held through it); the steps between the two are the suspects,
  /// but for words found by scanning C memory.
  public init(rootPath path: RetainPath, expectedGone: (ObjectInfo) -> String? = { _ in nil }) {
    let objects = path.objects
    var expectations: [Expectation] = objects.indices.map { index in
      if let why = expectedGone(objects[index]) { return .gone(why) }
      let holder = index > 0 ? objects[index - 1] : nil
      return Self.lifetime(of: objects[index], heldFrom: holder).map(Expectation.alive) ?? .unknown
    }
    let lastAlive = expectations.lastIndex { if case .alive = $0 { true } else { false } }
    let firstGone = expectations.indices.first { index in
      guard case .gone = expectations[index] else { return false }
      return index > (lastAlive ?? -1)
    }
    if let lastAlive {
      for index in 0..<lastAlive where expectations[index] == .unknown {
        expectations[index] = .alive("it holds \(objects[lastAlive].name), which is expected alive")
      }
    }
    if let firstGone {
      for index in (firstGone + 1)..<objects.count where expectations[index] == .unknown {
        expectations[index] = .gone("held through \(objects[firstGone].name), which is expected gone")
      }
    }
    self.objects = expectations
    // A word no metadata describes (C memory's) is no reference the program wrote.
    suspects = firstGone.map { ((lastAlive ?? 0)..<$0).filter { !path.steps[$0].isConservative } } ?? []
  }

  /// Reads a retain cycle nothing reachable holds (or one the caller knows
  /// should be gone): every member is expected gone, and the one suspect is
  /// the reference to break — of the references the program's own code made
  /// (`isProgramCode` says whose fields and closures those are; `nil`, not
  /// known, counts as the program's), the last closure capture, else the
  /// last reference; a library's own references (SwiftNIO's context keeping
  /// its handler) are not the program's to break.
  public init(
    cycle path: RetainPath, expectedGone: (ObjectInfo) -> String? = { _ in nil },
    isProgramCode: (ObjectInfo) -> Bool? = { _ in nil }
  ) {
    let members = path.steps.isEmpty ? [path.start] : [path.start] + path.steps.dropLast().map(\.target)
    objects = members.map { .gone(expectedGone($0) ?? "on a retain cycle nothing reachable holds") }
    let holders = [path.start] + path.steps.map(\.target)
    let made = path.steps.indices.filter { index in
      let step = path.steps[index]
      return step.strength.keepsTargetAlive && !step.isConservative && isProgramCode(holders[index]) != false
    }
    let candidates = made.isEmpty ? Array(path.steps.indices) : made
    let captures = candidates.filter { path.steps[$0].isClosureCapture }
    suspects = (captures.last ?? candidates.last).map { [$0] } ?? []
  }

  /// Why `object` lives as long as the process, when its kind, its type or
  /// what holds it says so.
  static func lifetime(of object: ObjectInfo, heldFrom holder: ObjectInfo?) -> String? {
    if object.kind == .root { return "a root" }
    let type = object.typeName
    for (marker, why) in longLivedTypes where type.contains(marker) { return why }
    if let holder, holder.kind == .root,
      singletonMarkers.contains(where: { holder.name.lowercased().contains($0) })
    {
      return "a singleton, held from \(holder.name)"
    }
    return nil
  }

  /// Types whose instances live as long as the program or its event loops.
  static let longLivedTypes: [(String, String)] = [
    ("NotificationCenter", "the notification center lives as long as the process"),
    ("EventLoopGroup", "a running event loop group"),
    ("SelectableEventLoop", "a running event loop"),
    ("NIOThread", "a running event loop's thread"),
    ("RunLoop", "a running thread's run loop"),
    ("AppDelegate", "the app delegate lives as long as the app"),
  ]

  /// Names of a global that holds one shared instance.
  static let singletonMarkers = ["shared", "default", "instance", "singleton"]
}

extension TraceReading {
  /// `look at: captures InboxScreen#1, the reference to break`; nil with no suspect.
  public func whereToLook(onCycle path: RetainPath) -> String? {
    guard !suspects.isEmpty else { return nil }
    return "look at: \(suspects.map { path.steps[$0].step }.joined(separator: " → ")), the reference to break"
  }

  /// `look at: observers → [49].handler, between global eventHub (expected
  /// alive: a root) and RequestSession (expected gone: its count grew by
  /// 50)`: the suspects by their labels (a reference from the root by what
  /// it reaches); nil with no suspect.
  public func whereToLook(onRootPath path: RetainPath) -> String? {
    guard !suspects.isEmpty else { return nil }
    let steps = suspects.map {
      path.steps[$0].label.isEmpty ? path.steps[$0].target.name : path.steps[$0].label
    }
    let named = zip(path.objects, objects)
    var bounds: [String] = []
    if let (object, expectation) = named.reversed().first(where: {
      if case .alive = $0.1 { true } else { false }
    }) {
      bounds.append("\(object.name) (\(expectation))")
    }
    if let (object, expectation) = named.first(where: { if case .gone = $0.1 { true } else { false } }) {
      bounds.append("\(object.name) (\(expectation))")
    }
    return "look at: \(steps.joined(separator: " → ")), between " + bounds.joined(separator: " and ")
  }
}

extension RetainPath {
  /// The path's objects: its start, then each step's target.
  public var objects: [ObjectInfo] { [start] + steps.map(\.target) }
}

extension Reference {
  /// Whether the reference is a closure's capture (`captures[1]`, or a
  /// closure value naming the object it captures).
  public var isClosureCapture: Bool {
    label.hasPrefix("captures") || (closure != nil && target.kind != .closureContext)
  }
}

extension Explanation {
  /// Where to look on the explanation's path (``TraceReading``): the
  /// explained object is the one expected gone.
  public var reading: TraceReading? {
    switch verdict {
    case .cycle(let path): TraceReading(cycle: path)
    case .heldByRoot(let path):
      TraceReading(rootPath: path) { $0.address == object.address ? "it was expected to be freed" : nil }
    case .notVisible: nil
    }
  }

  /// `look at: captures InboxScreen#1, the reference to break`, or on a path
  /// from a root `look at: [0]: ArticleScreen#1 (between global
  /// OpenScreens.screens, expected alive: a root…; and ArticleScreen#1,
  /// expected gone: it was expected to be freed)`; nil when the trace names
  /// no suspect.
  public var whereToLook: String? {
    guard let path, let reading else { return nil }
    if case .cycle = verdict { return reading.whereToLook(onCycle: path) }
    return reading.whereToLook(onRootPath: path)
  }

}
