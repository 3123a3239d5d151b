/// `strong-back-reference`: a strong optional `var` that points back to an
/// object that owns its holder.
///
/// Ownership is read from the code, never from the property's name: a type
/// owns what it holds in strong stored properties (element types of
/// collections included, and every linted type a protocol or class type can
/// be), and what it adds as a subview, child or element from its own methods.
/// A property is reported when it is a strong, optional `var` the holder did
/// not make itself, and the types it can point to own the holder through some
/// other path: `delegate` on a form that a screen adds as a subview, when that
/// screen is a delegate of the form's kind.
enum BackReferenceRule {
  private struct Edge {
    var to: String
    var label: String
    /// The property this edge is, to leave it out of its own cycle.
    var property: String?
    /// How much it looks like a back reference, if it is a candidate itself.
    var score: Int?
  }

  static func findings(_ context: inout RuleContext) -> [LintFinding] {
    let edges = ownershipEdges(&context)
    var findings: [LintFinding] = []
    for typeName in context.index.types.keys.sorted() {
      guard let info = context.index.types[typeName], info.kind != .protocol, info.kind != .enum else {
        continue
      }
      for name in info.propertyOrder {
        guard let property = info.properties[name], isCandidate(property, in: typeName, context: context)
        else {
          continue
        }
        let holders = context.index.compatibleTypes(with: typeName)
        let targets = property.shape.names.filter { !info.genericParameters.contains($0) }
          .flatMap { context.index.compatibleTypes(with: $0) }
        for target in Set(targets).sorted() {
          // Within one class family (a tree of screens or nodes), only a property
          // some object is seen setting to itself is a back reference.
          if sameFamily(target, typeName, context: &context),
            !context.facts.selfAssignedProperties.contains(name)
          {
            continue
          }
          let score = backScore(property, context: &context)
          guard
            let path = shortestPath(
              from: target, to: holders, edges: edges, skipping: typeName + "." + name, maxScore: score)
          else { continue }
          let chain = ([target] + path.map(\.label)).joined(separator: " → ")
          findings.append(
            context.finding(
              .strongBackReference, at: property.position,
              "`\(name)` holds a \(target) strongly, and \(target) keeps this \(typeName) (\(chain)): a cycle.",
              fix: "Declare it `weak var \(name)` (or `unowned`): it points back to an owner."))
          break
        }
      }
    }
    return findings
  }

  /// Whether two types share a superclass declared in the linted files.
  private static func sameFamily(_ first: String, _ second: String, context: inout RuleContext) -> Bool {
    let index = context.index
    func classes(_ name: String) -> Set<String> {
      Set(index.supertypes(of: name).filter { index.types[$0]?.kind == .class })
    }
    return !classes(first).isDisjoint(with: classes(second))
  }

  /// How much a candidate looks like a back reference: seen set to `self`
  /// (`form.delegate = self`) 2, typed as a protocol 1, else 0. A cycle is
  /// blamed on its most back-reference-like property, never on a forward one.
  private static func backScore(_ property: PropertyInfo, context: inout RuleContext) -> Int {
    if context.facts.selfAssignedProperties.contains(property.name) { return 2 }
    return property.shape.names.contains { context.index.types[$0]?.kind == .protocol } ? 1 : 0
  }

  /// Strong, optional, set from outside: the shape of a back reference.
  private static func isCandidate(_ property: PropertyInfo, in typeName: String, context: RuleContext) -> Bool
  {
    property.keepsValue && !property.isLet && property.shape.isOptional && !property.shape.isClosure
      && !property.shape.isCollection && !property.initialValueConstructs && !property.isLazy
      && !property.shape.names.isEmpty
      && !context.facts.constructedProperties.contains(typeName + "." + property.name)
      // Cleared somewhere (`context = nil` in `handlerRemoved`): the cycle is broken by hand.
      && !context.facts.drainedProperties.contains(typeName + "." + property.name)
  }

  private static func ownershipEdges(_ context: inout RuleContext) -> [String: [Edge]] {
    var edges: [String: [Edge]] = [:]
    for (typeName, info) in context.index.types where info.kind != .protocol {
      for holder in context.index.supertypes(of: typeName) {
        guard let holderInfo = context.index.types[holder] else { continue }
        for (name, property) in holderInfo.properties where property.keepsValue && !property.shape.isClosure {
          let score =
            isCandidate(property, in: holder, context: context) ? backScore(property, context: &context) : nil
          for targetName in property.shape.names where !holderInfo.genericParameters.contains(targetName) {
            for target in context.index.compatibleTypes(with: targetName) {
              edges[typeName, default: []].append(
                Edge(to: target, label: "\(name): \(target)", property: holder + "." + name, score: score))
            }
          }
        }
      }
    }
    for sink in context.resolution.sinks where sink.owner == .selfObject {
      guard let typeName = context.index.units[sink.unit].typeName else { continue }
      for case .object(.local(let id)) in context.resolution.expand(sink.carried) {
        guard let localType = context.facts.localTypes[id], context.facts.localUnits[id] == sink.unit else {
          continue
        }
        let call = sink.via.map { " \($0)" } ?? ""
        for target in context.index.compatibleTypes(with: localType) {
          let label = "\(sink.path)\(call) in \(context.unitName(sink.unit)): \(target)"
          // Seen in code (`view.addSubview(form)`): tried first, so messages name it.
          edges[typeName, default: []].insert(Edge(to: target, label: label, property: nil), at: 0)
        }
      }
    }
    return edges
  }

  /// The longest ownership chain back to the holder that is believed: real
  /// back references close short cycles (screen → form, presenter →
  /// interactor, parent → children); longer chains through protocol- and
  /// base-typed properties are artefacts of reading types, not objects.
  static let maxLength = 3

  /// The shortest chain of edges from `start` to one of `goals`, at least one
  /// edge and at most ``maxLength`` long.
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
