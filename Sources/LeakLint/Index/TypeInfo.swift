import SwiftSyntax

/// Where something is in the linted sources.
struct SourcePosition: Sendable, Hashable {
  var file: Int
  var line: Int
  var column: Int
}

/// What the linter knows of one nominal type, gathered from its declaration
/// and every extension in the linted files.
struct TypeInfo: Sendable {
  enum Kind: Sendable { case `class`, `struct`, `enum`, actor, `protocol`, unknown }

  var name: String
  var kind: Kind = .unknown
  /// Superclass, protocols, protocol parents, in declaration order.
  var inherited: [String] = []
  var genericParameters: Set<String> = []
  var properties: [String: PropertyInfo] = [:]
  var propertyOrder: [String] = []
  var methods: Set<String> = []
  var staticMembers: Set<String> = []
  /// Static stored `var`s that are an array, a set or a dictionary (`static var screens: [Screen] = []`):
  /// storage that lives as long as the process.
  var staticCollections: Set<String> = []
  var hasExplicitInit = false
  /// Every initializer it declares is `private` (or `fileprivate`).
  var hasOnlyPrivateInits = false
  var declaresInit = false
  /// A static stored property whose initial value makes an instance of this type (`static let shared = Self()`).
  var hasStaticInstance = false
  /// The application's delegate (`UIApplicationDelegate`, `@main`): it lives as long as the process.
  var isApplicationDelegate = false

  /// True when `self` is an object (a class, an actor, an unknown type, or a
  /// protocol whose conformers are all classes).
  var isReferenceType: Bool {
    switch kind {
    case .class, .actor, .unknown: true
    case .struct, .enum: false
    case .protocol: inherited.contains("AnyObject") || inherited.contains("class")
    }
  }
}

/// A stored or computed property of a type.
struct PropertyInfo: Sendable {
  enum Strength: Sendable { case strong, weak, unowned }

  var name: String
  var owner: String
  var strength: Strength = .strong
  var isLet = false
  var isLazy = false
  var isComputed = false
  var isOutlet = false
  var hasInitialValue = false
  /// The initial value constructs the object (`= Row()`, `= { … }()`).
  var initialValueConstructs = false
  /// The type the initial value constructs, when it is a plain initializer call (`= Row()`).
  var initialValueType: String?
  /// A SwiftUI wrapper of an object the view does not own alone (`@StateObject`, `@ObservedObject`, `@EnvironmentObject`).
  var isObjectWrapper = false
  var shape = TypeShape()
  var position: SourcePosition

  /// Stored, strong and an object reference the holder keeps.
  var keepsValue: Bool { !isComputed && strength == .strong }

  /// Whether what it points to is owned by the holder: strong, or an
  /// `@IBOutlet` (weak, but the view tree the holder owns keeps it).
  var ownsTarget: Bool { !isComputed && (strength == .strong || isOutlet) }
}

/// A function, method or initializer, as calls see it.
struct FunctionInfo: Sendable {
  struct Parameter: Sendable {
    var label: String?
    var name: String
    var hasDefault: Bool
    var isClosure: Bool
    /// The first nominal type its declared type names (`ChannelHandlerContext`), if any.
    var typeName: String? = nil
  }

  var name: String
  var owner: String?
  var parameters: [Parameter]
  var isStatic: Bool
  var key: NodeKey?
  /// The nominal types its declared result names (`AnyPublisher<Post, Error>` gives `AnyPublisher`, `Post`).
  var resultTypeNames: [String] = []
  /// The one type its result is declared as, when it is a single value of a nominal type
  /// (`PaymentCoordinator`, `(any PaymentFlow)?`; not `[Row]`, a closure or a tuple).
  var resultType: String?
  /// The calls at the head of the publisher chains it returns (`dataTaskPublisher`, `Future`), if it returns a publisher.
  var returnedChainHeads: [String] = []

  /// The argument labels, `_` for none: `run(completion:)` gives `["completion"]`.
  var labels: [String?] { parameters.map(\.label) }
}

/// A syntax node's identity across all linted files.
struct NodeKey: Sendable, Hashable {
  var file: Int
  var id: SyntaxIdentifier
}
