/// What every rule reads: the index, the walked facts, their resolution, and
/// the file names for findings.
struct RuleContext {
  let index: TypeIndex
  let facts: LintFacts
  let resolution: Resolution
  let files: [String]
  /// The units of each type, for teardown searches.
  let unitsByType: [String: [Int]]

  init(index: TypeIndex, facts: LintFacts, resolution: Resolution, files: [String]) {
    self.index = index
    self.facts = facts
    self.resolution = resolution
    self.files = files
    var units: [String: [Int]] = [:]
    for unit in index.units {
      if let typeName = unit.typeName { units[typeName, default: []].append(unit.id) }
    }
    unitsByType = units
  }

  func finding(
    _ rule: LintRule, at position: SourcePosition, _ message: String, fix: String? = nil
  ) -> LintFinding {
    LintFinding(
      file: files[position.file], line: position.line, column: position.column, rule: rule, message: message,
      fix: fix)
  }

  /// Whether some function of `typeName` (or a supertype or subtype), other
  /// than `deinit` and the unit that set things up, calls one of `names`. The
  /// function must be one that runs: an override, public, an accessor, or
  /// called somewhere in the linted code (a `breakCycleForTesting()` only
  /// tests call does not end a leak in the app).
  func hasTeardown(_ names: Set<String>, typeName: String?, excluding unit: Int) -> Bool {
    guard let typeName else { return false }
    let related = Set(index.supertypes(of: typeName)).union(index.compatibleTypes(with: typeName))
    return related.contains { relatedType in
      (unitsByType[relatedType] ?? []).contains { candidateID in
        let candidate = index.units[candidateID]
        return candidate.id != unit && candidate.kind != .deinitializer && runs(candidate)
          && !(facts.teardowns[candidate.id] ?? []).isDisjoint(with: names)
      }
    }
  }

  private func runs(_ unit: AnalysisUnit) -> Bool {
    switch unit.kind {
    case .function(let name): unit.isEntryPoint || facts.calledNames.contains(name)
    default: true
    }
  }

  /// The closures `items` keep, once calls are opened.
  func closures(in items: [Carried]) -> [Int] {
    resolution.expand(items).compactMap { if case .closure(let closure) = $0 { closure } else { nil } }
  }

  /// How a closure is named in messages: "this closure", "`handleResponse`".
  func name(of closure: ClosureInfo) -> String {
    switch closure.kind {
    case .literal: "this closure"
    case .methodReference(let name): "`\(name)` passed as a closure"
    case .assignOn: "`assign(to:on:)`"
    }
  }

  /// `$0, $1` for a method of two parameters, as a forwarding closure writes them.
  func arguments(of method: String, in typeName: String?) -> String {
    let owners = Set(index.supertypes(of: typeName))
    let count =
      (index.functionsByName[method] ?? []).map { index.functions[$0] }
      .first { $0.owner.map(owners.contains) ?? false }?.parameters.count ?? 1
    return (0..<count).map { "$\($0)" }.joined(separator: ", ")
  }

  func unitName(_ unit: Int) -> String {
    index.units[unit].displayName
  }
}
