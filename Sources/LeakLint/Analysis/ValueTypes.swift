/// The types a value can be at run time, read from what the program makes,
/// assigns and passes: `self` is the enclosing type, `Row()` a `Row`, a
/// parameter whatever its callers pass (followed through calls), a local or
/// property its declared type.
///
/// An exact type (`self`, a value made with `Row()`) is the type itself; a
/// declared one (`let row: RowProtocol`) may be any type compatible with it,
/// which the rules only believe when the program has few such types.
final class ValueTypes {
  struct TypeRef: Hashable, Comparable {
    var name: String
    /// Made as this type (`Row()`) or `self`, not only declared as it.
    var isExact: Bool
    /// It is `self` (directly or passed through parameters) where it was assigned.
    var isSelf = false

    static func < (lhs: TypeRef, rhs: TypeRef) -> Bool {
      (lhs.name, lhs.isExact ? 0 : 1, lhs.isSelf ? 0 : 1) < (
        rhs.name, rhs.isExact ? 0 : 1, rhs.isSelf ? 0 : 1
      )
    }
  }

  private let index: TypeIndex
  private let facts: LintFacts
  private let callsByName: [String: [Int]]
  private var parameterCache: [Int: [Int: Set<TypeRef>]] = [:]
  private var inProgress: Set<[Int]> = []

  init(index: TypeIndex, facts: LintFacts) {
    self.index = index
    self.facts = facts
    var byName: [String: [Int]] = [:]
    for (position, call) in facts.calls.enumerated() {
      byName[call.isInitializer ? "init:" + call.name : call.name, default: []].append(position)
    }
    callsByName = byName
  }

  /// The types of the objects `carried` holds, in `unit`.
  func types(of carried: [Carried], unit: Int) -> Set<TypeRef> {
    var result: Set<TypeRef> = []
    for item in carried {
      switch item {
      case .object(.selfObject):
        if let typeName = index.units[unit].typeName {
          result.insert(TypeRef(name: typeName, isExact: true, isSelf: true))
        }
      case .object(.local(let id)):
        if let typeName = facts.localTypes[id] { result.insert(TypeRef(name: typeName, isExact: false)) }
      case .parameter(let function, let position):
        result.formUnion(parameterTypes(function: function, position: position))
      case .callResult(let call):
        if facts.calls[call].isInitializer {
          result.insert(TypeRef(name: facts.calls[call].name, isExact: true))
        }
      case .closure: break
      }
    }
    // A local made as `Row()` is a `Row`, whatever it is declared as.
    if result.contains(where: \.isExact) { result = result.filter(\.isExact) }
    return result
  }

  /// What the callers of `function` pass as its parameter `position`.
  func parameterTypes(function: Int, position: Int) -> Set<TypeRef> {
    if let known = parameterCache[function]?[position] { return known }
    guard inProgress.insert([function, position]).inserted else { return [] }
    defer { inProgress.remove([function, position]) }
    // Cached even when a cycle of calls cut it short: what callers pass is read once.
    let declaration = index.functions[function]
    let key = declaration.name == "init" ? "init:" + (declaration.owner ?? "") : declaration.name
    var result: Set<TypeRef> = []
    for callIndex in callsByName[key] ?? [] {
      if !facts.calls[callIndex].isInitializer, let receiver = facts.calls[callIndex].receiverType,
        let owner = declaration.owner, !related(receiver, owner)
      {
        continue
      }
      guard
        let mapping = ArgumentMatcher.match(
          parameters: declaration.parameters, labels: facts.calls[callIndex].labels,
          trailingLabels: facts.calls[callIndex].trailingLabels)
      else { continue }
      for (argument, parameter) in mapping.enumerated() where parameter == position {
        result.formUnion(
          types(of: facts.calls[callIndex].arguments[argument], unit: facts.calls[callIndex].unit))
      }
    }
    parameterCache[function, default: [:]][position] = result
    return result
  }

  /// The generic parameters a type declares (`T` in `Box<T>`): no type of the program.
  func genericParameters(of typeName: String) -> Set<String> {
    index.types[typeName]?.genericParameters ?? []
  }

  /// Whether a receiver declared as `receiver` can run `owner`'s method: one inherits from the other.
  func related(_ receiver: String, _ owner: String) -> Bool {
    index.supertypes(of: receiver).contains(owner) || index.supertypes(of: owner).contains(receiver)
  }

  /// The linted object types a type reference can stand for: an exact type itself; a declared
  /// class with its subclasses, or a protocol's classes, only when there are few (a property
  /// declared `UIView`, or as a protocol twenty types conform to, could hold any of them).
  func objectTypes(_ reference: TypeRef) -> [String] {
    guard let info = index.types[reference.name], !index.isAmbiguous(reference.name) else { return [] }
    if reference.isExact {
      return [.class, .actor, .unknown].contains(info.kind) ? [reference.name] : []
    }
    switch info.kind {
    case .class, .actor:
      let family = index.compatibleTypes(with: reference.name).sorted()
      return family.count <= Self.fewTypes ? family : [reference.name]
    case .protocol:
      let conformers = index.compatibleTypes(with: reference.name).filter {
        [.class, .actor].contains(index.types[$0]?.kind)
      }.sorted()
      return conformers.count <= Self.fewTypes ? conformers : []
    default:
      return []
    }
  }

  /// How many types a declared class or protocol may stand for before it says nothing.
  static let fewTypes = 3
}
