import HeapModel

extension CensusRun {
  /// The site that allocated most instances of each grown type (at most
  /// `limit` types, the largest growth first), from the allocation
  /// recorder's stacks; empty when the process ran without the recorder.
  static func growthSites(_ diff: CensusDiff, in model: HeapModel, census: HeapCensus, limit: Int = 25)
    -> [String: AllocationSite]
  {
    if model.allocationStacks == nil, let stacks = AllocationRecorder.stacks(in: model) {
      model.attach(stacks)
    }
    guard let stacks = model.allocationStacks else { return [:] }
    var topStack: [String: Int] = [:]
    for change in diff.grown.prefix(limit) where !change.kind.isFree {
      guard let entry = census.entry(key: change.key),
        let top = model.commonestAllocationStack(of: entry.instances)
      else { continue }
      topStack[change.key] = top.stack
    }
    let symbolizer = StackSymbolizer(
      images: model.snapshot.images, executable: LeakAnalysis.executable(pid: model.snapshot.pid))
    let sites = symbolizer.sites(of: Set(topStack.values), in: stacks)
    return topStack.compactMapValues { sites[$0] }
  }
}
