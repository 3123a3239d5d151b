/// Every type, property and function of the linted files, by name.
///
/// Types are keyed by their simple name (`Outer.Inner` is `Inner`); a type's
/// extensions in any file add to it. The index answers the questions the rules
/// ask: is `self` an object here, is this name a stored property and how is it
/// held, which types can a value of type `T` be.
struct TypeIndex {
  var types: [String: TypeInfo] = [:]
  var functions: [FunctionInfo] = []
  var functionsByName: [String: [Int]] = [:]
  /// How many declarations (not extensions) each simple type name has; a name
  /// declared twice (`Storage` nested in two types) is ambiguous and left out of
  /// ownership questions.
  var declarationCounts: [String: Int] = [:]
  /// Functions by `Owner.name`.
  var functionsByMember: [String: [Int]] = [:]
  var units: [AnalysisUnit] = []
  /// Top-level `var`s that are an array, a set or a dictionary: storage that lives as long as the process.
  var globalCollections: Set<String> = []
  private var compatibleCache: [String: Set<String>] = [:]
  private var supertypeLists: [String: [String]] = [:]
  private var allMethods: [String: Set<String>] = [:]
  private var supertypeSets: [String: Set<String>] = [:]

  mutating func type(named name: String) -> TypeInfo {
    types[name] ?? TypeInfo(name: name)
  }

  mutating func update(_ name: String, _ body: (inout TypeInfo) -> Void) {
    var info = types[name] ?? TypeInfo(name: name)
    body(&info)
    types[name] = info
  }

  mutating func addFunction(_ function: FunctionInfo) -> Int {
    functions.append(function)
    functionsByName[function.name, default: []].append(functions.count - 1)
    if let owner = function.owner {
      functionsByMember[owner + "." + function.name, default: []].append(functions.count - 1)
    }
    return functions.count - 1
  }

  /// The property `name` of `typeName` or of one of its superclasses.
  func property(_ name: String, in typeName: String?) -> PropertyInfo? {
    var current = typeName
    var seen: Set<String> = []
    while let name0 = current, let info = types[name0], seen.insert(name0).inserted {
      if let property = info.properties[name] { return property }
      current = info.inherited.first { types[$0]?.kind == .class }
    }
    return nil
  }

  /// Whether `name` is an instance method of `typeName` or of a supertype in the linted files.
  func hasMethod(_ name: String, in typeName: String?) -> Bool {
    guard let typeName else { return false }
    if let methods = allMethods[typeName] { return methods.contains(name) }
    return supertypes(of: typeName).contains { types[$0]?.methods.contains(name) == true }
  }

  /// Whether `name` is an instance member (property or method) of `typeName`.
  func hasInstanceMember(_ name: String, in typeName: String?) -> Bool {
    property(name, in: typeName) != nil || hasMethod(name, in: typeName)
  }

  /// `typeName` and everything it inherits from or conforms to, in the linted files.
  func supertypes(of typeName: String?) -> [String] {
    guard let typeName else { return [] }
    if let known = supertypeLists[typeName] { return known }
    var result: [String] = []
    var queue = [typeName]
    var seen: Set<String> = []
    while let next = queue.popLast() {
      guard seen.insert(next).inserted else { continue }
      result.append(next)
      queue.append(contentsOf: types[next]?.inherited ?? [])
    }
    return result
  }

  /// Works out, once, every type's supertypes, subtypes and methods.
  mutating func computeHierarchy() {
    var lists: [String: [String]] = [:]
    var compatible: [String: Set<String>] = [:]
    var methods: [String: Set<String>] = [:]
    for typeName in types.keys {
      let supers = supertypes(of: typeName)
      lists[typeName] = supers
      var all: Set<String> = []
      for parent in supers {
        compatible[parent, default: []].insert(typeName)
        all.formUnion(types[parent]?.methods ?? [])
      }
      methods[typeName] = all
    }
    supertypeLists = lists
    supertypeSets = lists.mapValues(Set.init)
    compatibleCache = compatible
    allMethods = methods
  }

  /// The linted types a value declared as `name` can be: the type itself, its
  /// subclasses, and every type conforming to it (directly or through parents).
  func compatibleTypes(with name: String) -> Set<String> {
    isAmbiguous(name) ? [] : compatibleCache[name]?.filter { !isAmbiguous($0) } ?? []
  }

  /// Declared more than once under this simple name.
  func isAmbiguous(_ name: String) -> Bool {
    (declarationCounts[name] ?? 0) > 1
  }

  /// Whether `self` in `typeName` is an object (unknown types are assumed to be).
  func isReferenceType(_ typeName: String?) -> Bool {
    guard let typeName else { return false }
    return types[typeName]?.isReferenceType ?? true
  }

  /// The functions a call `name(labels…)` can reach, preferring those of
  /// `receiverType`. With no known receiver, a name declared too often to
  /// guess (`init`, `append`) reaches nothing.
  func candidates(name: String, labels: [String?], trailingLabels: [String?], receiverType: String?) -> [Int]
  {
    func matches(_ function: Int) -> Bool {
      ArgumentMatcher.match(
        parameters: functions[function].parameters, labels: labels, trailingLabels: trailingLabels)
        != nil
    }
    if let receiverType {
      let own = supertypes(of: receiverType).flatMap { functionsByMember[$0 + "." + name] ?? [] }.filter(
        matches)
      if !own.isEmpty || types[receiverType] != nil { return own }
    }
    let all = functionsByName[name] ?? []
    guard all.count <= 16 else { return [] }
    return all.filter(matches)
  }
}
