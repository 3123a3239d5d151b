/// Lifetime budgets: at most `maxCount` live instances per type or group.
struct Budgets {
  struct Budget {
    let name: String
    var maxCount: Int
    /// Members by identity (see ``InvertedAddress``); an entry whose object
    /// died may be replaced by a new object at the same address, which is
    /// correct since the old one is gone.
    var members: [InvertedAddress: WeakObject] = [:]
    var exceeded = false
    var decision: LeakDecision?
    var ignored = false

    var liveCount: Int { members.values.reduce(0) { $0 + ($1.object == nil ? 0 : 1) } }

    mutating func prune() {
      members = members.filter { $0.value.object != nil }
    }

    /// Adds a member; returns whether the budget became exceeded just now.
    mutating func add(_ object: AnyObject, maxCount: Int) -> Bool {
      self.maxCount = maxCount
      members[InvertedAddress(object)] = WeakObject(object: object)
      guard members.count > maxCount else { return false }
      prune()
      guard members.count > maxCount, !exceeded, !ignored else { return false }
      exceeded = true
      return true
    }
  }

  private(set) var budgets: [String: Budget] = [:]
  /// Names of exceeded budgets, in the order they were exceeded.
  private(set) var exceededOrder: [String] = []

  var hasOpenIssues: Bool { !exceededOrder.isEmpty }

  var openIssues: [BudgetIssue] {
    exceededOrder.compactMap { name in
      guard let budget = budgets[name], budget.decision == .report else { return nil }
      return BudgetIssue(name: name, liveCount: budget.members.count, maxCount: budget.maxCount)
    }
  }

  /// Adds `object`; returns the issue if this made the budget newly exceeded.
  mutating func track(_ object: AnyObject, name: String, maxCount: Int) -> BudgetIssue? {
    if budgets[name] == nil { budgets[name] = Budget(name: name, maxCount: maxCount) }
    // Mutated in place: copying a budget out would copy its member table.
    guard budgets[name]!.add(object, maxCount: maxCount) else { return nil }
    exceededOrder.append(name)
    return BudgetIssue(name: name, liveCount: budgets[name]!.members.count, maxCount: maxCount)
  }

  /// Records the decision taken for a newly exceeded budget.
  mutating func decide(_ name: String, _ decision: LeakDecision) {
    guard var budget = budgets[name] else { return }
    budget.decision = decision
    if decision == .ignore {
      budget.ignored = true
      budget.exceeded = false
      exceededOrder.removeAll { $0 == name }
    }
    budgets[name] = budget
  }

  /// Re-counts exceeded budgets; returns those back within their limit.
  mutating func recount() -> [BudgetIssue] {
    var cleared: [BudgetIssue] = []
    for name in exceededOrder {
      guard var budget = budgets[name] else { continue }
      budget.prune()
      if budget.members.count <= budget.maxCount {
        budget.exceeded = false
        cleared.append(BudgetIssue(name: name, liveCount: budget.members.count, maxCount: budget.maxCount))
        budget.decision = nil
      }
      budgets[name] = budget
    }
    let clearedNames = Set(cleared.map(\.name))
    exceededOrder.removeAll { clearedNames.contains($0) }
    return cleared
  }

  func liveCount(of name: String) -> Int? { budgets[name]?.liveCount }
}
