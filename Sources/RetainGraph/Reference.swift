/// How a reference holds its target.
public enum ReferenceStrength: String, Sendable, Hashable, CaseIterable {
  /// Keeps the target alive (`var`, `let`, a closure capture).
  case strong
  /// Does not keep the target alive and becomes `nil` when it dies (`weak`).
  case weak
  /// Does not keep the target alive; traps if used after it dies (`unowned`).
  case unowned
  /// Not counted at all (`unowned(unsafe)`, `Unmanaged`).
  case unmanaged
  /// The strength could not be seen (the `Mirror` fallback cannot tell).
  case unknown

  /// Whether the reference can be part of a retain cycle or a retain path.
  public var keepsTargetAlive: Bool { self == .strong || self == .unknown }
}

/// What kind of heap object a node of the retain graph is.
public enum ObjectKind: String, Sendable, Hashable {
  /// An instance of a class.
  case object
  /// The context of a closure: the heap object that holds its captures.
  case closureContext
  /// The storage of an `Array`, `Dictionary` or `Set`.
  case collectionStorage
  /// Anything else the runtime allocated (a box, an opaque block).
  case other
  /// A block of memory from `malloc` that is not a Swift object: C, C++ or
  /// Objective-C data (a CoreFoundation or Dispatch object, a Block).
  case mallocBlock
  /// Memory that is not a heap block: a global, a thread's stack or
  /// thread-local storage, where a path from a true root starts.
  case root
}

/// A heap object seen during an inspection: its address, type and display name.
///
/// The explainer never keeps objects alive: an `ObjectInfo` holds no
/// reference, only what was read while the object was alive.
public struct ObjectInfo: Sendable, Hashable, CustomStringConvertible {
  /// The object's address when it was inspected.
  public var address: UInt {
    get { ~invertedAddress }
    set { invertedAddress = ~newValue }
  }
  /// The address, kept inverted: explanations live as long as their reports
  /// (the app keeps a log of them), and a conservative scan — `leaklab leaks`,
  /// the memory search — would read a plain address as a pointer holding the
  /// leaked object.
  private var invertedAddress: UInt
  /// The unqualified type name (`AlertController`, `closure`, `Dictionary storage`).
  public var typeName: String
  /// The name the caller's naming function gave (`AlertController#1`), else the type name.
  public var name: String
  /// What kind of heap object this is.
  public var kind: ObjectKind

  /// Creates the description of a heap object.
  public init(address: UInt, typeName: String, name: String? = nil, kind: ObjectKind = .object) {
    self.invertedAddress = ~address
    self.typeName = typeName
    self.name = name ?? typeName
    self.kind = kind
  }

  public var description: String { name }
}

/// One outgoing reference of an object: a field, a capture or a collection element.
///
/// ```swift
/// for reference in explainer.references(of: controller) {
///   print(reference)  // actions[0]: AlertAction (strong)
/// }
/// ```
public struct Reference: Sendable, Hashable, CustomStringConvertible {
  /// Where the reference is stored: `delegate`, `actions[0]`, `captures[1]`,
  /// `observers.values[0]`, or `word 3` for a conservative find.
  public var label: String
  /// How the reference holds its target.
  public var strength: ReferenceStrength
  /// Whether the edge was found by scanning opaque memory for object
  /// addresses rather than from type metadata (it may be stale or not a
  /// counted reference).
  public var isConservative: Bool
  /// When the reference is a closure value: the closure's name
  /// (`closure in AlertScreen.showAlert()`, or `closure` when unknown).
  public var closure: String?
  /// The object referred to.
  public var target: ObjectInfo

  /// Creates a reference.
  public init(
    label: String, strength: ReferenceStrength, isConservative: Bool = false, closure: String? = nil,
    target: ObjectInfo
  ) {
    self.label = label
    self.strength = strength
    self.isConservative = isConservative
    self.closure = closure
    self.target = target
  }

  /// The reference as a path step: `handler: closure in A.f() → captures AlertController#1`.
  public var step: String {
    let prefix = isConservative ? "(conservative) " : ""
    if label.isEmpty && closure == nil { return "\(prefix)\(target.name)" }
    let separator = label.hasPrefix("captures") ? " " : ": "
    guard let closure else { return "\(prefix)\(label)\(separator)\(target.name)" }
    if target.kind == .closureContext { return "\(prefix)\(label)\(separator)\(closure)" }
    return "\(prefix)\(label)\(separator)\(closure) → captures \(target.name)"
  }

  public var description: String { "\(step) (\(strength.rawValue))" }
}
