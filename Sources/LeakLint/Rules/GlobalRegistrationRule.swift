import SwiftSyntax

/// `global-registration`: an object added to a collection that lives as long as
/// the process — a static or global array, set or dictionary, or one a
/// singleton keeps — and taken out only in its own `deinit`, or never.
///
/// No cycle is needed: the collection keeps the object, and a removal in the
/// object's `deinit` cannot run while it does (abandoned memory). What is added
/// is self, or a value of the type whose code adds it (a factory's `let session
/// = Session()`), directly or through functions of the linted code that add
/// their parameter (`OpenScreens.register(self)`, whose `register(_:)` appends
/// it). A removal counts when it can run while the object is kept: anywhere but
/// the deinit of the object's type (or a related one) and functions only that
/// deinit calls. Not reported: a weak box, `NSHashTable.weakObjects()` or an
/// `ObjectIdentifier(self)` key (no object is added), a collection self owns, an
/// object that lives as long as the process, and a cache's value never removed
/// (kept under a key, or looked up before it is added: one per key).
enum GlobalRegistrationRule {
  /// An object added to a lasting collection, and where.
  private struct Addition {
    var key: String
    /// The type of the object added (self's, or the local's made as self's type).
    var owner: String
    var isSelf: Bool
    var isKeyed: Bool
    var unit: Int
    var position: SourcePosition
    /// The function of the linted code that adds it, if not added here: `OpenScreens.register(_:)`.
    var via: String?
  }

  static func findings(_ context: inout RuleContext) -> [LintFinding] {
    var analysis = Analysis(context)
    let additions = analysis.additions()
    guard !additions.isEmpty else { return [] }
    let removals = analysis.removalSites()
    var findings: [LintFinding] = []
    let groups = Dictionary(grouping: additions) { [$0.key, $0.owner] }
    for group in groups.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      let added = (groups[group] ?? []).sorted { order($0.position) < order($1.position) }
      guard let first = added.first else { continue }
      let sites = removals[first.key] ?? []
      var visiting: Set<Int> = []
      if sites.contains(where: { analysis.canRun($0.unit, whileKept: first.owner, visiting: &visiting) }) {
        continue
      }
      let collection = describe(first.key)
      let family = analysis.family(of: first.owner)
      let inDeinit = sites.filter {
        let unit = context.index.units[$0.unit]
        return unit.kind == .deinitializer && family.contains(unit.typeName ?? "")
      }
      if let removal = inDeinit.min(by: { order($0.position) < order($1.position) }) {
        let shown = added.first(where: \.isSelf) ?? first
        let adder = "`\(context.unitName(shown.unit))`"
        let kept =
          shown.isSelf
          ? "self once \(shown.via.map { "`\($0)` adds it in \(adder)" } ?? "\(adder) adds it")"
          : "each `\(shown.owner)` that \(adder) adds"
        findings.append(
          context.finding(
            .globalRegistration, at: removal.position,
            "\(collection) keeps \(kept), and this removal in deinit never runs while it does: nothing else takes \(shown.isSelf ? "self" : "one") out, so it stays for good."
          ))
        continue
      }
      // A cache's value (stored under a key, or looked up before it is added), never removed: one
      // per key or per kind, not a registration.
      let name = String(first.key.split(whereSeparator: { $0 == "." || $0 == ":" }).last ?? "")
      guard
        let reported = added.first(where: {
          $0.isSelf || (!$0.isKeyed && !looksUp(name, in: context.index.units[$0.unit].node))
        })
      else { continue }
      let kept =
        reported.isSelf
        ? "self once it is added here\(reported.via.map { " (`\($0)` adds it)" } ?? "")"
        : "each `\(reported.owner)` added here"
      findings.append(
        context.finding(
          .globalRegistration, at: reported.position,
          "\(collection) keeps \(kept), and nothing ever takes \(reported.isSelf ? "it" : "one") out: every one added stays for good."
        ))
    }
    return findings
  }

  /// Calls that look an element up in a collection: a get-or-create cache calls one before adding.
  private static let lookups: Set<String> = [
    "first", "firstIndex", "last", "lastIndex", "contains", "filter",
  ]

  /// Whether a body looks the collection `name` up (`sizers.first(where:)`, `loaders[url]` read,
  /// not assigned): it finds what it made before and adds only what it has not, as a cache does.
  private static func looksUp(_ name: String, in body: Syntax) -> Bool {
    func names(_ expression: ExprSyntax?) -> Bool {
      guard let expression = expression?.unwrapped else { return false }
      if let reference = expression.as(DeclReferenceExprSyntax.self) {
        return reference.baseName.text == name
      }
      return expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == name
    }
    let searched = body.descendantsOrSelf(MemberAccessExprSyntax.self).contains {
      lookups.contains($0.declName.baseName.text) && names($0.base)
    }
    return searched
      || body.descendantsOrSelf(SubscriptCallExprSyntax.self).contains {
        names($0.calledExpression) && !isAssigned($0)
      }
  }

  /// Whether an expression is the left side of an assignment (`loaders[url] = loader`).
  private static func isAssigned(_ node: some ExprSyntaxProtocol) -> Bool {
    guard let list = node.parent?.as(ExprListSyntax.self) else { return false }
    let elements = Array(list)
    guard let position = elements.firstIndex(where: { $0.id == node.id }), position + 1 < elements.count
    else {
      return false
    }
    return elements[position + 1].is(AssignmentExprSyntax.self)
      || elements[position + 1].as(BinaryOperatorExprSyntax.self)?.operator.text == "+="
  }

  private static func order(_ position: SourcePosition) -> (Int, Int, Int) {
    (position.file, position.line, position.column)
  }

  /// How messages name a collection: "the static `OpenScreens.screens`", "the global `openScreens`",
  /// "the singleton `Registry`'s `items`".
  private static func describe(_ key: String) -> String {
    if key.hasPrefix("static:") { return "the static `\(key.dropFirst("static:".count))`" }
    if key.hasPrefix("global:") { return "the global `\(key.dropFirst("global:".count))`" }
    guard let dot = key.lastIndex(of: ".") else { return "`\(key)`" }
    return "the singleton `\(key[..<dot])`'s `\(key[key.index(after: dot)...])`"
  }

  /// The questions the rule asks of the facts: which functions add a parameter to a lasting
  /// collection, which calls reach a function, which units can run while an object is kept.
  private struct Analysis {
    let context: RuleContext
    /// Calls by name, for the callers of a function.
    let callsByName: [String: [Int]]
    private var targetsCache: [Int: [(function: Int, mapping: [Int])]] = [:]
    /// For each parameter of a linted function, the lasting collections it is added to.
    private var adds: [ParameterSlot: Set<String>] = [:]

    init(_ context: RuleContext) {
      self.context = context
      var byName: [String: [Int]] = [:]
      for (position, call) in context.facts.calls.enumerated() {
        byName[call.name, default: []].append(position)
      }
      callsByName = byName
    }

    /// Whether a collection outlives what it holds: static, global, or a singleton's.
    func isLasting(_ key: String) -> Bool {
      if key.hasPrefix("static:") || key.hasPrefix("global:") { return true }
      guard let dot = key.lastIndex(of: ".") else { return false }
      return context.livesForever(String(key[..<dot]))
    }

    /// The functions a call can reach, each with the parameter each argument binds to.
    mutating func targets(of callIndex: Int) -> [(function: Int, mapping: [Int])] {
      if let known = targetsCache[callIndex] { return known }
      let call = context.facts.calls[callIndex]
      let receiverType =
        call.isInitializer ? call.name : context.facts.typeReceivers[callIndex] ?? call.receiverType
      let candidates = context.index.candidates(
        name: call.isInitializer ? "init" : call.name, labels: call.labels,
        trailingLabels: call.trailingLabels,
        receiverType: receiverType)
      let result = candidates.compactMap { function -> (function: Int, mapping: [Int])? in
        let info = context.index.functions[function]
        if call.isInitializer && info.owner != call.name { return nil }
        return ArgumentMatcher.match(
          parameters: info.parameters, labels: call.labels, trailingLabels: call.trailingLabels
        ).map { (function, $0) }
      }
      targetsCache[callIndex] = result
      return result
    }

    /// The lasting collections a call adds its argument `argument` to: those every function it can
    /// reach adds that parameter to.
    private mutating func collections(addedBy callIndex: Int, argument: Int) -> Set<String> {
      let reached = targets(of: callIndex)
      var result: Set<String>?
      for target in reached {
        guard argument < target.mapping.count else { return [] }
        let keys = adds[ParameterSlot(function: target.function, index: target.mapping[argument])] ?? []
        result = result.map { $0.intersection(keys) } ?? keys
      }
      return result ?? []
    }

    /// Every object added to a lasting collection: directly, or through functions that add their parameter.
    mutating func additions() -> [Addition] {
      let facts = context.facts
      var result: [Addition] = []
      for insert in facts.collectionInserts where isLasting(insert.key) {
        for case .parameter(let function, let index) in insert.carried {
          adds[ParameterSlot(function: function, index: index), default: []].insert(insert.key)
        }
        for item in insert.carried {
          guard let (owner, isSelf) = addedObject(item, unit: insert.unit) else { continue }
          result.append(
            Addition(
              key: insert.key, owner: owner, isSelf: isSelf, isKeyed: insert.isKeyed, unit: insert.unit,
              position: insert.position))
        }
      }
      guard !adds.isEmpty else { return result }
      // Functions that pass their parameter on to one that adds it add it too.
      for _ in 0..<8 {
        let before = adds
        for call in relevantCalls() {
          for (argument, items) in facts.calls[call].arguments.enumerated() {
            let keys = collections(addedBy: call, argument: argument)
            guard !keys.isEmpty else { continue }
            for case .parameter(let function, let index) in items {
              adds[ParameterSlot(function: function, index: index), default: []].formUnion(keys)
            }
          }
        }
        if adds == before { break }
      }
      for call in relevantCalls() {
        for (argument, items) in facts.calls[call].arguments.enumerated() {
          let keys = collections(addedBy: call, argument: argument)
          guard !keys.isEmpty else { continue }
          let via = targets(of: call).first.map { describe(function: $0.function) }
          for item in items {
            guard let (owner, isSelf) = addedObject(item, unit: facts.calls[call].unit) else { continue }
            for key in keys.sorted() {
              result.append(
                Addition(
                  key: key, owner: owner, isSelf: isSelf, isKeyed: false, unit: facts.calls[call].unit,
                  position: facts.calls[call].position, via: via))
            }
          }
        }
      }
      return result
    }

    /// Calls to a function named like one that adds a parameter.
    private func relevantCalls() -> [Int] {
      let names = Set(adds.keys.map { context.index.functions[$0.function].name })
      return names.sorted().flatMap { callsByName[$0] ?? [] }
    }

    /// The object an added value is, with its type, when the rule follows it: self (an object), or a
    /// local made as the type whose code adds it. Nothing added in a deinit, nor an object that
    /// lives as long as the process.
    private func addedObject(_ item: Carried, unit unitID: Int) -> (owner: String, isSelf: Bool)? {
      let unit = context.index.units[unitID]
      guard unit.kind != .deinitializer, let typeName = unit.typeName, !context.livesForever(typeName) else {
        return nil
      }
      switch item {
      case .object(.selfObject): return (typeName, true)
      case .object(.local(let id)):
        guard !context.facts.parameterRoots.contains(id),
          let made = context.facts.localTypes[id].map({ $0 == "Self" ? typeName : $0 }), made == typeName,
          [.class, .actor].contains(context.index.types[typeName]?.kind)
        else { return nil }
        return (typeName, false)
      default: return nil
      }
    }

    /// `OpenScreens.register(_:)`, for messages.
    private func describe(function: Int) -> String {
      let info = context.index.functions[function]
      let labels = info.parameters.map { ($0.label ?? "_") + ":" }.joined()
      return (info.owner.map { $0 + "." } ?? "") + info.name + "(\(labels))"
    }

    /// Where elements of each lasting collection may leave it, by collection: the removals, and the
    /// calls to functions that (directly or through others) remove from it.
    mutating func removalSites() -> [String: [CollectionRemoval]] {
      var sites: [String: [CollectionRemoval]] = [:]
      var removers: [String: Set<Int>] = [:]
      var pending: [(key: String, unit: Int)] = []
      for removal in context.facts.collectionRemovals where isLasting(removal.key) {
        sites[removal.key, default: []].append(removal)
        pending.append((removal.key, removal.unit))
      }
      // A function that removes makes each call to it a removal, in its caller.
      while let (key, unitID) = pending.popLast() {
        guard let function = context.index.units[unitID].functionIndex,
          removers[key, default: []].insert(function).inserted
        else { continue }
        for call in callers(of: function) {
          let flow = context.facts.calls[call]
          sites[key, default: []].append(
            CollectionRemoval(key: key, unit: flow.unit, position: flow.position))
          pending.append((key, flow.unit))
        }
      }
      return sites
    }

    /// The calls that may reach `function`: by name and labels, and by the receiver's type when
    /// it is known (erring towards more callers, which only ever lets more removals count).
    func callers(of function: Int) -> [Int] {
      let info = context.index.functions[function]
      return (callsByName[info.name == "init" ? info.owner ?? "" : info.name] ?? []).filter { call in
        let flow = context.facts.calls[call]
        guard flow.isInitializer == (info.name == "init"),
          ArgumentMatcher.match(
            parameters: info.parameters, labels: flow.labels, trailingLabels: flow.trailingLabels)
            != nil
        else { return false }
        guard let owner = info.owner, !flow.isInitializer,
          let receiver = context.facts.typeReceivers[call] ?? flow.receiverType,
          context.index.types[receiver] != nil
        else { return true }
        return context.index.supertypes(of: receiver).contains(owner)
          || context.index.compatibleTypes(with: owner).contains(receiver)
      }
    }

    /// `owner` and the types related to it: their deinits are the object's own.
    func family(of owner: String) -> Set<String> {
      Set(context.index.supertypes(of: owner)).union(context.index.compatibleTypes(with: owner))
    }

    /// Whether a unit can run while a lasting collection keeps an object of type `owner`: not that
    /// type's deinit (or a related type's), nor a function only such code calls. A function no
    /// linted code calls runs if something outside can call it (an override, a public or
    /// internal one), not if it is private or named for tests.
    func canRun(_ unitID: Int, whileKept owner: String, visiting: inout Set<Int>) -> Bool {
      let unit = context.index.units[unitID]
      switch unit.kind {
      case .deinitializer: return !family(of: owner).contains(unit.typeName ?? "")
      case .function:
        if unit.isEntryPoint { return true }
        guard let function = unit.functionIndex else { return true }
        let calls = callers(of: function)
        if calls.isEmpty { return context.runs(unit) }
        guard visiting.insert(unitID).inserted else { return false }
        return calls.contains { canRun(context.facts.calls[$0].unit, whileKept: owner, visiting: &visiting) }
      default: return true
      }
    }
  }
}
