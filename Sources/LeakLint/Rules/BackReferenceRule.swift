/// `strong-back-reference`: a strong stored property that the program sets to
/// an object which owns, directly or through objects it owns, the property's
/// holder.
///
/// Decided by what the program stores, never by the property's name or its
/// declared type alone: a property is a back reference only when an
/// assignment of `self`, or of a value made or declared as the owner's type
/// (followed through parameters: `Child(parent: self)`), reaches it. Ownership
/// is read the same way: a property holds the types seen stored in it (an
/// initial value, assignments, appends), else its declared type when the
/// program has few types of that kind (a `UIView` or a protocol twenty types
/// conform to could be any of them); a `view.addSubview(form)` makes the
/// screen an owner of the form. So `var contentView: UIView?` that no code
/// sets to an owner, an `@IBOutlet`, or `private let shadowView = UIView()`
/// is never a back reference.
enum BackReferenceRule {
  private struct Edge {
    var to: String
    var label: String
    /// The property this edge is (`Type.name`), to leave it out of its own cycle.
    var property: String?
    /// How much it looks like a back reference, if it is a candidate itself.
    var score: Int?
  }

  /// A property's possible back-reference targets, from the values stored in it.
  private struct Target: Comparable {
    var name: String
    /// How much it looks like a back reference (see ``backScore``).
    var score: Int

    static func < (lhs: Target, rhs: Target) -> Bool { (lhs.name, -lhs.score) < (rhs.name, -rhs.score) }
  }

  static func findings(_ context: inout RuleContext) -> [LintFinding] {
    let valueTypes = ValueTypes(index: context.index, facts: context.facts)
    let stores = Dictionary(grouping: context.facts.propertyStores, by: \.property)
    var declaring: [String: Int] = [:]
    for info in context.index.types.values where info.kind != .protocol {
      for name in info.properties.keys { declaring[name, default: 0] += 1 }
    }
    let edges = ownershipEdges(context, valueTypes: valueTypes, stores: stores)
    var findings: [LintFinding] = []
    for typeName in context.index.types.keys.sorted() {
      guard let info = context.index.types[typeName], [.class, .actor].contains(info.kind),
        !context.index.isAmbiguous(typeName)
      else { continue }
      let holders = context.index.compatibleTypes(with: typeName)
      for name in info.propertyOrder {
        guard let property = info.properties[name], isCandidate(property, in: typeName, context: context)
        else {
          continue
        }
        // A store through a value of unknown type (`x.handler = …`) is this property's only when no
        // other type declares a property of that name.
        let relevant = (stores[name] ?? []).filter { store in
          store.ownerType.map { valueTypes.related($0, typeName) } ?? (declaring[name] == 1)
        }
        if let finding = ownerParameterFinding(property, in: typeName, stores: relevant, context: &context) {
          findings.append(finding)
          continue
        }
        for target in targets(of: relevant, holder: typeName, valueTypes: valueTypes, context: context) {
          guard !context.livesForever(target.name) else { continue }
          // Within one class family (a tree of screens or nodes), only a property
          // set to the object itself (`child.parent = self`) is a back reference.
          if sameFamily(target.name, typeName, context: context), target.score < 4 { continue }
          guard
            let path = shortestPath(
              from: target.name, to: holders, edges: edges, skipping: typeName + "." + name,
              maxScore: target.score)
          else { continue }
          let chain = ([target.name] + path.map(\.label)).joined(separator: " → ")
          findings.append(
            context.finding(
              .strongBackReference, at: property.position,
              "`\(name)` holds \(article(target.name)) \(target.name) strongly, and \(target.name) keeps this \(typeName) (\(chain)): a cycle.",
              fix: "Declare it `weak var \(name)` (or `unowned`): it points back to an owner."))
          break
        }
      }
    }
    return findings
  }

  /// The types stored in a property that can be an owner: `self` of some type, a value made as a
  /// type (`Presenter()`), or one declared as a class the program has (not a protocol, not a
  /// framework type: "typed as the owner").
  private static func targets(
    of stores: [PropertyStore], holder: String, valueTypes: ValueTypes, context: RuleContext
  ) -> [Target] {
    var best: [String: Int] = [:]
    for store in stores {
      var references = valueTypes.types(of: store.carried, unit: store.unit)
      // A parameter every screen passes itself to (`present(scene:from: self)`) is no one owner.
      if references.count > ValueTypes.fewTypes { continue }
      if let valueType = store.valueType {
        references.insert(ValueTypes.TypeRef(name: valueType, isExact: store.valueTypeIsExact))
      }
      for reference in references {
        let kind = context.index.types[reference.name]?.kind
        guard reference.isExact || kind == .class || kind == .actor else { continue }
        guard !context.index.isAmbiguous(reference.name), reference.name != holder || reference.isSelf else {
          continue
        }
        best[reference.name] = max(
          best[reference.name] ?? 0,
          score(isSelf: reference.isSelf, store: store, holder: holder, context: context))
      }
    }
    return best.map { Target(name: $0.key, score: $0.value) }.sorted()
  }

  /// How much a stored value looks like a way back to an owner: `self` (4); else set after the
  /// holder is made (2, not given to its initializer: a dependency) plus 1 when the property is
  /// declared as a protocol (the delegate pattern).
  private static func score(isSelf: Bool, store: PropertyStore, holder: String, context: RuleContext) -> Int {
    if isSelf { return 4 }
    let declared = context.index.property(store.property, in: holder)?.shape.names ?? []
    let isProtocol = declared.contains { context.index.types[$0]?.kind == .protocol }
    return (injected(store, context) ? 0 : 2) + (isProtocol ? 1 : 0)
  }

  /// "a" or "an", as the type's name is said.
  static func article(_ name: String) -> String {
    name.first.map { "AEIOU".contains($0) } == true ? "an" : "a"
  }

  /// A value the holder's initializer is given (`init(handler:) { self.handler = handler }`): the
  /// object is built around it, a dependency rather than a way back (unless it is the caller's `self`).
  private static func injected(_ store: PropertyStore, _ context: RuleContext) -> Bool {
    context.index.units[store.unit].kind == .initializer
      && store.carried.contains { if case .parameter = $0 { true } else { false } }
  }

  /// A SwiftNIO-style handler that keeps the context it is given (`self.context = context` in
  /// `handlerAdded(context:)`): the framework's context keeps its handler.
  private static func ownerParameterFinding(
    _ property: PropertyInfo, in typeName: String, stores: [PropertyStore], context: inout RuleContext
  ) -> LintFinding? {
    for store in stores
    where context.index.supertypes(of: context.index.units[store.unit].typeName).contains(typeName) {
      for case .object(.local(let id)) in store.carried where context.facts.ownerLocals.contains(id) {
        let type = context.facts.localTypes[id] ?? "context"
        return context.finding(
          .strongBackReference, at: property.position,
          "`\(property.name)` holds the \(type) this \(typeName) was given in \(context.unitName(store.unit)) strongly, and a \(type) keeps its handler: a cycle.",
          fix: "Declare it `weak var \(property.name)`, or set it to nil when the handler is removed.")
      }
    }
    return nil
  }

  /// Whether two types share a superclass declared in the linted files.
  private static func sameFamily(_ first: String, _ second: String, context: RuleContext) -> Bool {
    let index = context.index
    func classes(_ name: String) -> Set<String> {
      Set(index.supertypes(of: name).filter { index.types[$0]?.kind == .class })
    }
    return !classes(first).isDisjoint(with: classes(second))
  }

  /// Strong and stored, set from outside, not cleared by hand: the shape of a back reference.
  private static func isCandidate(_ property: PropertyInfo, in typeName: String, context: RuleContext) -> Bool
  {
    property.keepsValue && !property.shape.isClosure && !property.shape.isCollection
      && !property.initialValueConstructs && !property.isLazy && !property.shape.names.isEmpty
      && !context.facts.constructedProperties.contains(typeName + "." + property.name)
      // Cleared somewhere (`context = nil` in `handlerRemoved`): the cycle is broken by hand.
      && !context.facts.drainedProperties.contains(typeName + "." + property.name)
  }

  /// How much a candidate looks like a back reference, for blaming a cycle on one property (its
  /// stores' highest ``score(isSelf:store:holder:context:)``): a cycle is blamed on its most
  /// back-reference-like property, never on a forward one.
  private static func backScore(
    _ property: PropertyInfo, in typeName: String, stores: [String: [PropertyStore]], valueTypes: ValueTypes,
    context: RuleContext
  ) -> Int {
    let relevant = (stores[property.name] ?? []).filter { store in
      store.ownerType.map { valueTypes.related($0, typeName) } ?? true
    }
    return relevant.map { store in
      let isSelf = valueTypes.types(of: store.carried, unit: store.unit).contains(where: \.isSelf)
      return score(isSelf: isSelf, store: store, holder: typeName, context: context)
    }.max() ?? 0
  }

  /// Who owns whom: each type's strong stored properties, to the types the program stores in
  /// them; and what its methods add to storage it keeps (`view.addSubview(form)`).
  private static func ownershipEdges(
    _ context: RuleContext, valueTypes: ValueTypes, stores: [String: [PropertyStore]]
  ) -> [String: [Edge]] {
    let index = context.index
    var held: [String: [ValueTypes.TypeRef]] = [:]
    var sinkEdges: [String: [Edge]] = [:]
    for sink in context.resolution.sinks where sink.owner == .selfObject {
      guard let typeName = index.units[sink.unit].typeName else { continue }
      let references = valueTypes.types(of: context.resolution.expand(sink.carried), unit: sink.unit)
        .filter { !$0.isSelf }
      guard references.count <= ValueTypes.fewTypes else { continue }
      if let key = sink.storageKey, let dot = key.lastIndex(of: "."),
        index.types[String(key[..<dot])]?.properties[String(key[key.index(after: dot)...])]?.isComputed
          == false
      {
        held[key, default: []].append(contentsOf: references)
        continue
      }
      let call = sink.via.map { " \($0)" } ?? ""
      for reference in references.sorted() {
        for target in valueTypes.objectTypes(reference) {
          let label = "\(sink.path)\(call) in \(context.unitName(sink.unit)): \(target)"
          sinkEdges[typeName, default: []].append(Edge(to: target, label: label, property: nil))
        }
      }
    }
    var edges: [String: [Edge]] = [:]
    // A property's edges are the same for the holder and each of its subclasses: worked out once.
    var propertyEdges: [String: [Edge]] = [:]
    for typeName in index.types.keys.sorted() {
      guard let info = index.types[typeName], [.class, .actor, .unknown].contains(info.kind) else { continue }
      // Seen in code (`view.addSubview(form)`): tried first, so messages name it.
      var list = sinkEdges[typeName] ?? []
      for holder in index.supertypes(of: typeName) {
        guard let holderInfo = index.types[holder] else { continue }
        for name in holderInfo.propertyOrder {
          // A property cleared by hand (`context = nil` in `handlerRemoved`) closes no cycle for good.
          guard let property = holderInfo.properties[name], property.keepsValue, !property.shape.isClosure,
            !context.facts.drainedProperties.contains(holder + "." + name)
          else { continue }
          let key = holder + "." + name
          if let known = propertyEdges[key] {
            list += known
            continue
          }
          let score =
            isCandidate(property, in: holder, context: context)
            ? backScore(property, in: holder, stores: stores, valueTypes: valueTypes, context: context) : nil
          let made = heldTypes(
            property, holder: holder, seen: held[key] ?? [], stores: stores, valueTypes: valueTypes
          ).map { Edge(to: $0, label: "\(name): \($0)", property: key, score: score) }
          propertyEdges[key] = made
          list += made
        }
      }
      if !list.isEmpty { edges[typeName] = list }
    }
    return edges
  }

  /// The types a property holds: those seen stored in it (its initial value, assignments by its
  /// type or others, appends), else those its declared type stands for when they are few.
  private static func heldTypes(
    _ property: PropertyInfo, holder: String, seen: [ValueTypes.TypeRef], stores: [String: [PropertyStore]],
    valueTypes: ValueTypes
  ) -> [String] {
    var references = Set(seen)
    if let made = property.initialValueType { references.insert(.init(name: made, isExact: true)) }
    var isSet = !seen.isEmpty || property.hasInitialValue
    for store in stores[property.name] ?? [] {
      // A store through a value of unknown type (`cell.viewModel = …`) may be this property's.
      guard let owner = store.ownerType else {
        isSet = true
        continue
      }
      guard valueTypes.related(owner, holder) else { continue }
      isSet = true
      // A value many types reach (a parameter every screen passes itself to) says nothing of one object.
      let stored = valueTypes.types(of: store.carried, unit: store.unit)
      if stored.count <= ValueTypes.fewTypes { references.formUnion(stored) }
      if let valueType = store.valueType {
        references.insert(.init(name: valueType, isExact: store.valueTypeIsExact))
      }
    }
    // Set nowhere the program shows (an outlet, a property another module fills): it holds nothing known.
    guard isSet else { return [] }
    if references.isEmpty {
      let generics = valueTypes.genericParameters(of: holder)
      references = Set(
        property.shape.names.filter { !generics.contains($0) }.map {
          ValueTypes.TypeRef(name: $0, isExact: false)
        })
    }
    var result: [String] = []
    for reference in references.sorted() {
      for target in valueTypes.objectTypes(reference) where !result.contains(target) { result.append(target) }
    }
    return result
  }

  /// The longest ownership chain back to the holder that is believed: real
  /// back references close short cycles (screen → form, presenter →
  /// interactor, parent → children); longer chains are artefacts of reading
  /// types, not objects.
  static let maxLength = 3

  /// The shortest chain of edges from `start` to one of `goals`, at least one
  /// edge and at most ``maxLength`` long; among equally short ones, the first
  /// in the edges' (sorted) order.
  private static func shortestPath(
    from start: String, to goals: Set<String>, edges: [String: [Edge]], skipping: String, maxScore: Int
  ) -> [Edge]? {
    var previous: [String: (from: String, edge: Edge)] = [:]
    var depth: [String: Int] = [:]
    var queue = [start]
    var seen: Set<String> = [start]
    var head = 0
    while head < queue.count {
      let node = queue[head]
      head += 1
      guard depth[node, default: 0] < maxLength else { continue }
      for edge in edges[node] ?? [] where edge.property != skipping && (edge.score ?? 0) <= maxScore {
        if goals.contains(edge.to) {
          var path = [edge]
          var cursor = node
          while cursor != start, let step = previous[cursor] {
            path.insert(step.edge, at: 0)
            cursor = step.from
          }
          return path
        }
        if seen.insert(edge.to).inserted {
          depth[edge.to] = depth[node, default: 0] + 1
          previous[edge.to] = (node, edge)
          queue.append(edge.to)
        }
      }
    }
    return nil
  }
}
