import SwiftSyntax

/// What a declared type says about ownership: the nominal types it can hold,
/// and whether it is optional or a closure.
struct TypeShape: Sendable, Hashable {
  /// The nominal type names it mentions (`[Row]` gives `Row`; `(any P)?` gives `P`).
  var names: [String] = []
  /// `T?` or `T!`.
  var isOptional = false
  /// A function type, possibly optional.
  var isClosure = false
  /// An array, set or dictionary.
  var isCollection = false

  /// Names that never make a cycle: protocols every type conforms to, the
  /// standard library's value types, and the wrappers looked through.
  static let ignoredNames: Set<String> = [
    "Any", "AnyObject", "NSObject", "NSObjectProtocol", "Sendable", "Equatable", "Hashable", "Codable",
    "Encodable", "Decodable", "Identifiable", "CustomStringConvertible", "Error", "Self", "Void", "Never",
    "String", "Substring", "Character", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16",
    "UInt32", "UInt64", "Double", "Float", "Bool", "CGFloat", "Decimal", "Date", "URL", "Data", "UUID",
    "Duration", "TimeInterval", "Optional", "Array", "Set", "Dictionary", "ContiguousArray", "Result",
    "ImplicitlyUnwrappedOptional", "Published", "AnyCancellable", "Task", "DispatchWorkItem",
  ]

  init() {}

  init(_ type: TypeSyntax?) {
    guard let type else { return }
    collect(type, depth: 0)
  }

  private mutating func collect(_ type: TypeSyntax, depth: Int) {
    if let optional = type.as(OptionalTypeSyntax.self) {
      if depth == 0 { isOptional = true }
      collect(optional.wrappedType, depth: depth)
    } else if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      if depth == 0 { isOptional = true }
      collect(iuo.wrappedType, depth: depth)
    } else if let attributed = type.as(AttributedTypeSyntax.self) {
      collect(attributed.baseType, depth: depth)
    } else if let tuple = type.as(TupleTypeSyntax.self) {
      if tuple.elements.count == 1, let only = tuple.elements.first {
        collect(only.type, depth: depth)
      } else {
        for element in tuple.elements { collect(element.type, depth: depth + 1) }
      }
    } else if type.is(FunctionTypeSyntax.self) {
      if depth == 0 { isClosure = true }
    } else if let array = type.as(ArrayTypeSyntax.self) {
      if depth == 0 { isCollection = true }
      collect(array.element, depth: depth + 1)
    } else if let dictionary = type.as(DictionaryTypeSyntax.self) {
      if depth == 0 { isCollection = true }
      collect(dictionary.key, depth: depth + 1)
      collect(dictionary.value, depth: depth + 1)
    } else if let some = type.as(SomeOrAnyTypeSyntax.self) {
      collect(some.constraint, depth: depth)
    } else if let composition = type.as(CompositionTypeSyntax.self) {
      for element in composition.elements { collect(element.type, depth: depth + 1) }
    } else if let member = type.as(MemberTypeSyntax.self) {
      add(member.name.text)
      for argument in member.genericArgumentClause?.arguments ?? [] {
        if let argumentType = argument.argument.as(TypeSyntax.self) {
          collect(argumentType, depth: depth + 1)
        }
      }
    } else if let identifier = type.as(IdentifierTypeSyntax.self) {
      let name = identifier.name.text
      if ["Array", "Set", "Dictionary", "ContiguousArray"].contains(name), depth == 0 { isCollection = true }
      if name == "Optional", depth == 0 { isOptional = true }
      add(name)
      for argument in identifier.genericArgumentClause?.arguments ?? [] {
        if let argumentType = argument.argument.as(TypeSyntax.self) {
          collect(argumentType, depth: name == "Optional" ? depth : depth + 1)
        }
      }
    }
  }

  /// The nominal type a declared type is one value of, looking through optionals and `any`/`some`
  /// (`PaymentCoordinator`, `(any PaymentFlow)?`, `Module.Row`); `nil` for a collection, a closure,
  /// a tuple, a generic type's instance (`Result<Row, Error>` is no `Row`) or a name the lint ignores.
  static func nominalName(of type: TypeSyntax?) -> String? {
    guard let type else { return nil }
    if let optional = type.as(OptionalTypeSyntax.self) { return nominalName(of: optional.wrappedType) }
    if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return nominalName(of: iuo.wrappedType)
    }
    if let some = type.as(SomeOrAnyTypeSyntax.self) { return nominalName(of: some.constraint) }
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return nominalName(of: only.type)
    }
    let name: String
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
      name = identifier.name.text
    } else if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil {
      name = member.name.text
    } else {
      return nil
    }
    return ignoredNames.contains(name) ? nil : name
  }

  private mutating func add(_ name: String) {
    guard !Self.ignoredNames.contains(name), !names.contains(name) else { return }
    names.append(name)
  }
}
