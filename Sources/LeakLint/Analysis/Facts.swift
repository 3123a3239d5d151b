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
  /// What its body ends, by teardown and storage (`drain@?.readabilityHandler`): a handler that
  /// clears itself when done lets go of what it captures.
  var endedStorage: Set<String> = []
  var tag: Tag = .none
  /// Objects it captures `unowned` (a crash, not a leak, if they go first).
  var unownedCaptures: Set<Root> = []
  /// Its body uses self, strongly or not (`self?.show(x)` in a `[weak self]` task).
  var usesSelf = false
  /// A subscription's closure whose publisher finishes after one value (a request, `Future`, `Just`).
  var isOneShot = false
  /// For a subscription: the head of its chain, decided once every function is known
  /// (`api.fetchPosts(page:)` is one-shot if `fetchPosts` returns a request's publisher).
  var chainHead: String?
}

/// A parameter of a linted function: the function's index in ``TypeIndex/functions`` and its position.
struct ParameterSlot: Hashable {
  var function: Int
  var index: Int
}

/// A `Task { … }` (or `Task.detached`) and where it is kept.
struct TaskUse {
  var closure: Int
  var call: Int
  var unit: Int
  /// Where the task is kept: a property's or a local's storage key, if any.
  var storageKey: String?
  /// The task is made and dropped (its handle is not kept anywhere): nothing can cancel it.
  var isDiscarded = false
}

/// A value assigned to a property: `form.delegate = self`, `self.parent = parent`.
struct PropertyStore {
  /// The declared type of the object whose property is set; `nil` when unknown.
  var ownerType: String?
  var property: String
  var carried: [Carried]
  var unit: Int
  /// The declared type of a value that is a property of some object (`container.contentView = chevron`),
  /// exact when that property is initialised with its own object.
  var valueType: String?
  var valueTypeIsExact = false
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
    // `&cancellables` names the storage `cancellables`.
    self.node = node.as(InOutExprSyntax.self).map { Syntax($0.expression) } ?? Syntax(node)
  }

  var description: String { text ?? node?.trimmedDescription ?? "" }
}

/// A place where a value is kept: a property, a collection, an object's storage.
struct Sink {
  /// Whose storage it is; `nil` for a global, a static or a weakly held object.
  var owner: Root?
  var carried: [Carried]
  /// The storage's key (`Type.property`, `local:3`), to match teardowns to it.
  var storageKey: String?
  /// The storage is static (`Session.shared.onEvent`): it outlives any instance.
  var isStatic = false
  /// The object whose storage it is (`connection` in `connection.stateUpdateHandler`), by storage
  /// key: cancelling it (`connection.cancel()`) lets go of what it keeps.
  var holderKey: String?
  /// Made by a call that keeps an argument (`presenter.present(request:)`): the call and the argument.
  var derivedFrom: (call: Int, argument: Int)?
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
  /// The receiver's storage key (`Type.property`, `local:3`), if it is one.
  var receiverKey: String?
  /// The receiver is static storage (`EventBus.shared`).
  var receiverIsStatic = false
  var isInitializer: Bool
  var position: SourcePosition
  var known: KnownAPI.Semantics?
}

/// A use of an API that keeps a closure or object from a root until torn down.
struct APIUse {
  enum Kind { case delayed, timer, observer, dispatchSource, urlSession }
  var kind: Kind
  var call: Int
  var carried: [Carried]
  /// For `target: self` timers and `delegate: self` sessions.
  var target: Root?
  var position: SourcePosition
  var unit: Int
  var name: String
  /// Where what must be torn down is kept (`Type.timer`, `local:3`): the result's storage, or for
  /// `setEventHandler` the receiver's.
  var storageKey: String?
  /// The result (a token, a timer) is dropped where it is made: nothing can tear it down later.
  var isDiscarded = false
}

/// An object added to a collection that may outlive it: a static one, a global one, or a
/// singleton's (`screens.append(screen)`, `Session.live[id] = self`).
struct CollectionInsert {
  /// The collection: `static:OpenScreens.screens`, `global:openScreens`, `Registry.items`.
  var key: String
  /// What is added.
  var carried: [Carried]
  /// Added under a key (`cache[url] = loader`, `updateValue(_:forKey:)`): one per key, as a cache keeps them.
  var isKeyed: Bool
  var unit: Int
  var position: SourcePosition
}

/// A place where elements may leave such a collection: `screens.removeAll { … }`,
/// `Session.live[id] = nil`, `screens = []`.
struct CollectionRemoval {
  var key: String
  var unit: Int
  var position: SourcePosition
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
  /// The type each local root was made as (`let form = PaymentForm()`).
  var localTypes: [Int: String] = [:]
  /// Unit of each local root (for the type-level ownership edges).
  var localUnits: [Int: Int] = [:]
  /// The name of each local root, for messages.
  var localNames: [Int: String] = [:]
  /// Local roots that are parameters of the function they belong to.
  var parameterRoots: Set<Int> = []
  /// The parameter each of those local roots is, when its function is indexed (`completion` in `download(_:completion:)`).
  var parameterSlots: [Int: ParameterSlot] = [:]
  /// Values assigned to properties, for the types a property can hold.
  var propertyStores: [PropertyStore] = []
  /// Tasks made, with where they are kept.
  var tasks: [TaskUse] = []
  /// Teardowns by what they tear down (`invalidate@Clock.timer`, `drain@Cell.disposeBag`,
  /// `removeObserver@Inbox.token`): the units that call them.
  var targetedTeardowns: [String: [Int]] = [:]
  /// Other storage a local's value is also kept in (`self.timer = timer`, `tasks.append(task)`), by the local's key.
  var storageAliases: [String: [String]] = [:]
  /// Local roots whose object keeps self (a SwiftNIO handler's `context` parameter).
  var ownerLocals: Set<Int> = []
  /// Local roots that stand for a property of self's value (`[imageView]` in a capture list), by property.
  var propertyCopies: [Int: String] = [:]
  /// Local roots that stand for a stored object of a value type (`model` in a SwiftUI view).
  var memberObjects: Set<Int> = []
  /// Objects added to static, global or singletons' collections, and where elements leave them.
  var collectionInserts: [CollectionInsert] = []
  var collectionRemovals: [CollectionRemoval] = []
  /// The type a call's receiver names, by call, when it is a type or its shared instance
  /// (`OpenScreens.register(self)`, `Registry.shared.add(self)`, a static method called bare).
  var typeReceivers: [Int: String] = [:]
}
