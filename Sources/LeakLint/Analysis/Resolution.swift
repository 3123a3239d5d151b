/// Decides, once every body has been walked, which parameters each function
/// keeps, what each call's result and receiver keep, and so every place a
/// closure or object ends up kept.
///
/// "Keeps a parameter" is a fixpoint: `init(handler:)` keeps its handler if it
/// stores it in a property, or passes it to another function that keeps it.
struct Resolution {
  let index: TypeIndex
  let facts: LintFacts
  private(set) var storedParameters: [Int: Set<Int>] = [:]
  /// Every sink: the direct ones and those made by calls that keep an argument.
  private(set) var sinks: [Sink] = []
  private struct Target {
    var function: Int
    var mapping: [Int]
  }
  private var targetsCache: [Int: [Target]] = [:]
  private var parameterRoots: Set<Int> = []

  init(index: TypeIndex, facts: LintFacts, parameterRoots: Set<Int>) {
    self.index = index
    self.facts = facts
    self.parameterRoots = parameterRoots
    for (position, function) in index.functions.enumerated() where function.key == nil {
      storedParameters[position] = Set(function.parameters.indices)
    }
    for call in facts.calls.indices { targetsCache[call] = targets(of: call) }
    // Calls whose receiver may keep an argument; the sinks they make are built once, at the end
    // (a sink's text is for messages only).
    let keepingCalls = facts.calls.indices.filter { position in
      switch facts.calls[position].known {
      case .resultKeepsClosures, .subscription, .assignOn: false
      default: !facts.calls[position].isInitializer
      }
    }
    for _ in 0..<8 {
      let before = storedParameters
      for sink in facts.sinks where keepsBeyondCall(sink.owner) && !isDrained(sink) {
        markStored(sink.carried)
      }
      for position in keepingCalls
      where keepsBeyondCall(facts.calls[position].receiverOwner)
        && !isDrained(
          owner: facts.calls[position].receiverOwner, property: facts.calls[position].receiverProperty,
          unit: facts.calls[position].unit)
      {
        for argument in keptArguments(of: position) { markStored(facts.calls[position].arguments[argument]) }
      }
      if storedParameters == before { break }
    }
    sinks = facts.sinks + derivedSinks(keepingCalls)
  }

  /// Records the parameters `items` carry as kept by their functions.
  private mutating func markStored(_ items: [Carried]) {
    for case .parameter(let function, let position) in expand(items) {
      storedParameters[function, default: []].insert(position)
    }
  }

  /// Where each function keeps its parameters (`present(request:)` keeps `request` in
  /// `Presenter.request`), by function and parameter: emptying that storage lets the argument go.
  func parameterStorage(function: Int, parameter: Int) -> [String] {
    var keys: Set<String> = []
    for sink in sinks {
      guard let key = sink.storageKey,
        sink.carried.contains(where: { $0 == .parameter(function: function, index: parameter) })
      else { continue }
      keys.insert(key)
    }
    return keys.sorted()
  }

  /// The functions a call reaches, each with the parameter its argument `argument` binds to.
  func targetParameters(of callIndex: Int, argument: Int) -> [(function: Int, parameter: Int)] {
    (targetsCache[callIndex] ?? []).compactMap { target in
      argument < target.mapping.count ? (target.function, target.mapping[argument]) : nil
    }
  }

  /// A sink into a property of self that is emptied elsewhere: kept until then, not for good.
  private func isDrained(_ sink: Sink) -> Bool {
    isDrained(owner: sink.owner, property: sink.property, unit: sink.unit)
  }

  private func isDrained(owner: Root?, property: String?, unit: Int) -> Bool {
    guard owner == .selfObject, let property, let typeName = index.units[unit].typeName else { return false }
    return facts.drainedProperties.contains(typeName + "." + property)
  }

  /// A sink whose owner outlives the call: self, a parameter's object, or anything untracked.
  private func keepsBeyondCall(_ owner: Root?) -> Bool {
    switch owner {
    case .local(let id): parameterRoots.contains(id)
    case .selfObject, nil: true
    }
  }

  private func targets(of callIndex: Int) -> [Target] {
    let name = facts.calls[callIndex].name
    let isInitializer = facts.calls[callIndex].isInitializer
    let labels = facts.calls[callIndex].labels
    let trailingLabels = facts.calls[callIndex].trailingLabels
    let candidates = index.candidates(
      name: isInitializer ? "init" : name, labels: labels, trailingLabels: trailingLabels,
      receiverType: isInitializer ? name : facts.calls[callIndex].receiverType)
    return candidates.compactMap { function in
      if isInitializer && index.functions[function].owner != name { return nil }
      guard
        let mapping = ArgumentMatcher.match(
          parameters: index.functions[function].parameters, labels: labels, trailingLabels: trailingLabels)
      else { return nil }
      return Target(function: function, mapping: mapping)
    }
  }

  /// Whether the call reaches a function of the linted code (else it is the framework's).
  func reachesLintedFunction(_ callIndex: Int) -> Bool {
    !(targetsCache[callIndex] ?? []).isEmpty
  }

  /// The arguments whose values the call's receiver (or, for an initializer, its result) keeps.
  func keptArguments(of callIndex: Int) -> [Int] {
    // Read in place: a call's record is large, and this runs for every call in every round.
    let arguments = facts.calls[callIndex].arguments
    let targets = targetsCache[callIndex] ?? []
    switch facts.calls[callIndex].known {
    case .receiverKeepsFirstArgument where targets.isEmpty || facts.calls[callIndex].receiverIsCollection:
      return arguments.isEmpty ? [] : [0]
    case .receiverKeepsClosures:
      return arguments.indices.filter { argument in
        arguments[argument].contains { if case .closure = $0 { true } else { false } }
      }
    case .resultKeepsClosures, .subscription, .assignOn:
      return Array(arguments.indices)
    case .root, .storeIn:
      return []
    default: break
    }
    guard !targets.isEmpty else { return [] }
    return arguments.indices.filter { argument in
      targets.allSatisfy { target in
        argument < target.mapping.count
          && storedParameters[target.function, default: []].contains(target.mapping[argument])
      }
    }
  }

  /// How the call keeps its argument, for messages: `FeedService.run(completion:)`.
  func describe(_ callIndex: Int) -> String {
    let call = facts.calls[callIndex]
    if let target = (targetsCache[callIndex] ?? []).first {
      let function = index.functions[target.function]
      let labels = function.parameters.map { ($0.label ?? "_") + ":" }.joined()
      return (function.owner.map { $0 + "." } ?? "") + "\(call.name)(\(labels))"
    }
    let labels = (call.labels + call.trailingLabels).map { ($0 ?? "_") + ":" }.joined()
    return "\(call.name)(\(labels))"
  }

  private func derivedSinks(_ keepingCalls: [Int]) -> [Sink] {
    var result: [Sink] = []
    for position in keepingCalls {
      let kept = keptArguments(of: position)
      guard !kept.isEmpty else { continue }
      let call = facts.calls[position]
      for argument in kept {
        var sink = Sink(
          owner: call.receiverOwner, carried: call.arguments[argument], position: call.position,
          path: call.receiverPath, unit: call.unit, property: call.receiverProperty, via: describe(position))
        sink.storageKey = call.receiverKey
        sink.holderKey = call.receiverKey
        sink.isStatic = call.receiverIsStatic
        sink.derivedFrom = (position, argument)
        result.append(sink)
      }
    }
    return result
  }

  /// The closures, objects and parameters `items` keep, calls' results opened.
  func expand(_ items: [Carried]) -> [Carried] {
    var result: [Carried] = []
    var seenCalls: Set<Int> = []
    var stack = items
    while let item = stack.popLast() {
      guard case .callResult(let callIndex) = item else {
        result.append(item)
        continue
      }
      guard seenCalls.insert(callIndex).inserted else { continue }
      let keepsInResult: Bool
      switch facts.calls[callIndex].known {
      case .resultKeepsClosures, .subscription, .assignOn: keepsInResult = true
      default: keepsInResult = facts.calls[callIndex].isInitializer
      }
      guard keepsInResult else { continue }
      for argument in keptArguments(of: callIndex) {
        stack.append(contentsOf: facts.calls[callIndex].arguments[argument])
      }
    }
    return result
  }

  /// For each local object, the roots that keep it (itself included): `let button = …; view.addSubview(button)`
  /// makes self an owner of `button`.
  func localOwners() -> [Int: Set<Root>] {
    var ownedBy: [Int: Set<Root>] = [:]
    for sink in sinks {
      guard let owner = sink.owner else { continue }
      for case .object(.local(let id)) in expand(sink.carried) where owner != .local(id) {
        ownedBy[id, default: []].insert(owner)
      }
    }
    var result: [Int: Set<Root>] = [:]
    func owners(of id: Int, visiting: inout Set<Int>) -> Set<Root> {
      if let known = result[id] { return known }
      guard visiting.insert(id).inserted else { return [.local(id)] }
      var all: Set<Root> = [.local(id)]
      for owner in ownedBy[id] ?? [] {
        switch owner {
        case .selfObject: all.insert(.selfObject)
        case .local(let other): all.formUnion(owners(of: other, visiting: &visiting))
        }
      }
      result[id] = all
      return all
    }
    for id in ownedBy.keys {
      var visiting: Set<Int> = []
      _ = owners(of: id, visiting: &visiting)
    }
    return result
  }
}
