import SwiftSyntax

/// An object a closure can capture and a sink can belong to: the enclosing
/// instance, or a local variable (or parameter) holding an object.
enum Root: Hashable {
  case selfObject
  case local(Int)
}

/// Something a value keeps alive, as far as the analysis tracks it.
enum Carried: Hashable {
  /// A closure (literal, method reference, or `assign(to:on:)`'s hidden one).
  case closure(Int)
  /// An object: self or a local.
  case object(Root)
  /// A parameter of the function being analysed (for "does it store this parameter?").
  case parameter(function: Int, index: Int)
  /// What a call's result keeps (decided once every function's stored parameters are known).
  case callResult(Int)
}

/// A closure, a method reference, or the closure hidden in `assign(to:on:)`.
struct ClosureInfo {
  enum Kind: Equatable {
    case literal
    case methodReference(String)
    case assignOn
  }
  enum Tag: Equatable { case none, task, combine }

  var kind: Kind
  var position: SourcePosition
  var unit: Int
  var typeName: String?
  /// Objects it captures strongly.
  var strongCaptures: Set<Root> = []
  /// It captures self from a `guard let self` / `if let self` rebinding.
  var capturesReboundSelf = false
  /// Its body (not a nested closure's) runs a `for await` or `while true` loop.
  var hasEndlessLoop = false
  /// Teardown calls in its body (`invalidate`, `cancel`): a timer that stops itself.
  var teardownCalls: Set<String> = []
  var tag: Tag = .none
}

/// A path as written, turned into text only when a message needs it (making
/// text from syntax for every assignment and call is most of a walk's cost).
struct PathText: CustomStringConvertible {
  private let text: String?
  private let node: Syntax?

  init(_ text: String) {
    self.text = text
    self.node = nil
  }

  init(_ node: some SyntaxProtocol) {
    self.text = nil
    self.node = Syntax(node)
  }

  var description: String { text ?? node?.trimmedDescription ?? "" }
}

/// A place where a value is kept: a property, a collection, an object's storage.
struct Sink {
  /// Whose storage it is; `nil` for a global, a static or a weakly held object.
  var owner: Root?
  var carried: [Carried]
  var position: SourcePosition
  /// The path as written: `self.retryButton.action`, `cancellables`.
  var path: PathText
  var unit: Int
  /// The first stored property of self on the path, if any.
  var property: String?
  /// How it keeps the value, for messages: `FeedService.run(completion:)`.
  var via: String?
  var isLazy = false
}

/// One call, with what each argument carries.
struct CallFlow {
  var unit: Int
  var name: String
  var labels: [String?]
  var trailingLabels: [String?]
  /// Explicit arguments, then trailing closures.
  var arguments: [[Carried]]
  var receiverOwner: Root?
  var receiverIsLocalValue = false
  var receiverType: String?
  var receiverIsCollection = false
  /// The property of self the receiver is, if it is one (`handlers` in `handlers.append(…)`).
  var receiverProperty: String?
  var receiverPath: PathText
  var isInitializer: Bool
  var position: SourcePosition
  var known: KnownAPI.Semantics?
}

/// A use of an API that keeps a closure or object from a root until torn down.
struct APIUse {
  enum Kind { case delayed, timer, observer, dispatchSource, urlSession }
  var kind: Kind
  var carried: [Carried]
  /// For `target: self` timers and `delegate: self` sessions.
  var target: Root?
  var position: SourcePosition
  var unit: Int
  var name: String
  /// The property the result is stored in, if any (`observer = center.addObserver…`).
  var storedIn: String?
}

/// Everything the walk over all units found, before the rules decide.
struct LintFacts {
  var closures: [ClosureInfo] = []
  var sinks: [Sink] = []
  var calls: [CallFlow] = []
  var apiUses: [APIUse] = []
  /// Teardown calls and `property = nil` assignments per unit: `invalidate`, `cancel`, `nil:completion`.
  var teardowns: [Int: Set<String>] = [:]
  /// Properties whose holder makes their value itself (`p = Row()` in one of its methods).
  var constructedProperties: Set<String> = []
  /// Every name called anywhere (`stop` for `player.stop()`): a teardown in a
  /// function nobody calls does not count.
  var calledNames: Set<String> = []
  /// Properties (`Type.name`) emptied somewhere other than `deinit` (`= nil`,
  /// `= []`, `removeAll()`, `removeValue(forKey:)`): what they keep is let go,
  /// like a future's callbacks once it completes.
  var drainedProperties: Set<String> = []
  /// Property names assigned `self` on another object (`form.delegate = self`).
  var selfAssignedProperties: Set<String> = []
  /// The type each local root was made as (`let form = PaymentForm()`).
  var localTypes: [Int: String] = [:]
  /// Unit of each local root (for the type-level ownership edges).
  var localUnits: [Int: Int] = [:]
  /// The name of each local root, for messages.
  var localNames: [Int: String] = [:]
  /// Local roots that are parameters of the function they belong to.
  var parameterRoots: Set<Int> = []
}
