/// What every rule reads: the index, the walked facts, their resolution, and
/// the file names for findings.
struct RuleContext {
  let index: TypeIndex
  let facts: LintFacts
  let resolution: Resolution
  let files: [String]
  /// The units of each type, for teardown searches.
  let unitsByType: [String: [Int]]
  /// Types whose one instance lives as long as the process (a singleton, the app delegate).
  let processLifetimeTypes: Set<String>
  /// Names of the linted functions that return a publisher finishing after one value.
  let oneShotFunctionNames: Set<String>

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
    processLifetimeTypes = Self.processLifetimeTypes(index: index, facts: facts, files: files)
    oneShotFunctionNames = Self.oneShotFunctionNames(index: index)
  }

  /// Types whose objects live as long as the process: the application's delegate; a singleton
  /// (a static property or a global holds an instance, and no other code of the app makes one, or
  /// every initializer is private); an object only such an object makes, in a property's initial
  /// value; and a test case (XCTest keeps every test case object until the run ends). What they
  /// keep for good is no leak.
  private static func processLifetimeTypes(index: TypeIndex, facts: LintFacts, files: [String]) -> Set<String>
  {
    var constructed: [String: Int] = [:]
    let testFiles = files.map(isTestFile)
    for position in facts.calls.indices where facts.calls[position].isInitializer {
      let unit = index.units[facts.calls[position].unit]
      // A test's own instances, and a global's initial value, are not the app making another one.
      guard unit.kind != .topLevel, !testFiles[unit.file] else { continue }
      constructed[facts.calls[position].name, default: 0] += 1
    }
    var result: Set<String> = []
    for (name, info) in index.types where info.kind == .class || info.kind == .actor {
      if info.isApplicationDelegate || index.supertypes(of: name).contains("XCTestCase")
        || (info.hasStaticInstance && (info.hasOnlyPrivateInits || constructed[name, default: 0] == 0))
      {
        result.insert(name)
      }
    }
    var changed = true
    while changed {
      changed = false
      for owner in result.sorted() {
        for property in (index.types[owner]?.properties ?? [:]).values {
          guard let made = property.initialValueType, !result.contains(made),
            [.class, .actor].contains(index.types[made]?.kind), constructed[made, default: 0] == 0
          else { continue }
          result.insert(made)
          changed = true
        }
      }
    }
    return result
  }

  /// A file of tests (`Tests/…`, `…Tests.swift`, `….test.swift`): its objects are not the app's.
  static func isTestFile(_ path: String) -> Bool {
    path.split(separator: "/").contains { component in
      component.hasSuffix("Tests") || component.hasSuffix("Test") || component.hasSuffix("Tests.swift")
        || component.hasSuffix("Test.swift") || component.hasSuffix(".test.swift")
    }
  }

  /// Functions whose publisher finishes after one value: declared to return a `Future` (or an
  /// RxSwift `Single`), or returning a chain whose head is a request, `Just`, `Future`, or another such function.
  private static func oneShotFunctionNames(index: TypeIndex) -> Set<String> {
    var oneShot: Set<Int> = []
    var changed = true
    func isOneShotName(_ name: String, _ known: Set<String>) -> Bool {
      PublisherChain.oneShotHeads.contains(name) || known.contains(name)
    }
    var names: Set<String> = []
    while changed {
      changed = false
      for (position, function) in index.functions.enumerated() where !oneShot.contains(position) {
        let declared = function.resultTypeNames.first.map(PublisherChain.oneShotTypes.contains) ?? false
        let returned =
          !function.returnedChainHeads.isEmpty
          && function.returnedChainHeads.allSatisfy { isOneShotName($0, names) }
        if declared || returned {
          oneShot.insert(position)
          changed = true
        }
      }
      names = Set(oneShot.map { index.functions[$0].name })
    }
    return names
  }

  /// Whether the type's instances live as long as the process.
  func livesForever(_ typeName: String?) -> Bool {
    typeName.map(processLifetimeTypes.contains) ?? false
  }

  /// Whether a subscription's closure lets go of what it captures once its publisher finishes.
  func isOneShot(_ closure: ClosureInfo) -> Bool {
    closure.isOneShot || closure.chainHead.map(oneShotFunctionNames.contains) == true
  }

  /// Whether the storage `key` is emptied or ended (by one of `names`: `drain`, `cancel`,
  /// `invalidate`, `removeObserver`) in a function that runs, other than `deinit` and the one
  /// that set it up (`timer?.invalidate()` before rescheduling ends the old timer, not the new
  /// one). A local's storage is ended in its own function (`defer { heartbeat.cancel() }`).
  func isTornDown(_ key: String, by names: [String], setupUnit: Int) -> Bool {
    var seen: Set<String> = []
    return isTornDown(key, by: names, setupUnit: setupUnit, seen: &seen)
  }

  private func isTornDown(_ key: String, by names: [String], setupUnit: Int, seen: inout Set<String>) -> Bool
  {
    guard seen.insert(key).inserted else { return false }
    for alias in facts.storageAliases[key] ?? []
    where isTornDown(alias, by: names, setupUnit: setupUnit, seen: &seen) {
      return true
    }
    let isLocal = key.hasPrefix("local:")
    var keys = [key]
    if !isLocal, let dot = key.lastIndex(of: ".") { keys.append("?" + key[dot...]) }
    for name in names {
      for key in keys {
        for candidateID in facts.targetedTeardowns[name + "@" + key] ?? [] {
          if isLocal {
            if candidateID == setupUnit { return true }
            continue
          }
          let candidate = index.units[candidateID]
          if candidateID != setupUnit && candidate.kind != .deinitializer && runs(candidate) { return true }
        }
      }
    }
    return false
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

  /// Whether a function can run in the program: one called in the linted code, an override or
  /// `public`, or an internal one (a `shutdown()` is called from code the lint may not see: another
  /// module, the app's owner) unless its name says only tests call it (`breakCycleForTesting()`).
  func runs(_ unit: AnalysisUnit) -> Bool {
    switch unit.kind {
    case .function(let name):
      unit.isEntryPoint || facts.calledNames.contains(name)
        || (!unit.isPrivate && !name.contains("Testing") && !name.contains("ForTest"))
    default: true
    }
  }

  /// The name of a tracked object, for messages: self, or a local's name in backticks.
  func objectName(_ root: Root) -> String {
    switch root {
    case .selfObject: "self"
    case .local(let id): facts.localNames[id].map { "`\($0)`" } ?? "an object it owns"
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
