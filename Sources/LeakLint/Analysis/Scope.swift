/// A name in scope while walking a body.
final class Binding {
  let name: String
  /// The object it refers to, if it is one the analysis tracks (self or a local object).
  var root: Root?
  /// Whether holding it keeps the object alive (`weak`/`unowned` captures do not).
  let isStrong: Bool
  /// The scope depth it was declared at.
  let depth: Int
  /// What it keeps: the closures assigned to it, parameters it stands for.
  var carried: [Carried]
  /// The type it was declared or made as.
  var typeName: String?
  /// A `guard let self` / `if let self` rebinding (or an alias of one).
  var isReboundSelf = false
  /// A collection value (`var handlers: [() -> Void] = []`).
  var isCollection = false
  /// The storage it is a copy of (`if let observer` of the property `observer`), for teardowns.
  var sourceKey: String?

  init(
    name: String, root: Root?, isStrong: Bool, depth: Int, carried: [Carried] = [], typeName: String? = nil
  ) {
    self.name = name
    self.root = root
    self.isStrong = isStrong
    self.depth = depth
    self.carried = carried
    self.typeName = typeName
  }
}

/// The scopes of the body being walked, innermost last.
struct ScopeStack {
  private(set) var scopes: [[String: Binding]] = []

  var depth: Int { scopes.count - 1 }

  mutating func push() { scopes.append([:]) }
  mutating func pop() { scopes.removeLast() }

  mutating func bind(_ binding: Binding) {
    scopes[scopes.count - 1][binding.name] = binding
  }

  func lookup(_ name: String) -> Binding? {
    for scope in scopes.reversed() {
      if let binding = scope[name] { return binding }
    }
    return nil
  }
}
