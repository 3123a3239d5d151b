import HeapModel

extension CensusRun {
  /// The site that allocated most instances of each grown type (at most
  /// `limit` types, the largest growth first), from the allocation
  /// recorder's stacks; empty when the process ran without the recorder.
  static func growthSites(_ diff: CensusDiff, in model: HeapModel, census: HeapCensus, limit: Int = 25)
    -> [String: AllocationSite]
  {
    guard let stacks = model.allocationStacks ?? AllocationRecorder.stacks(in: model) else { return [:] }
    var topStack: [String: Int] = [:]
    for change in diff.grown.prefix(limit) where !change.kind.isFree {
      guard let entry = census.entry(key: change.key) else { continue }
      var counts: [Int: Int] = [:]
      for address in entry.instances {
        guard let block = model.block(containing: address), let stack = stacks.stack(of: block) else {
          continue
        }
        counts[stack, default: 0] += 1
      }
      if let top = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) {
        topStack[change.key] = top.key
      }
    }
    let symbolizer = StackSymbolizer(
      images: model.snapshot.images, executable: LeakAnalysis.executable(pid: model.snapshot.pid))
    let named = symbolizer.frames(for: Set(topStack.values).flatMap { stacks.frames(of: $0) })
    return topStack.mapValues { AllocationSite(frames: stacks.frames(of: $0).flatMap { named[$0] ?? [] }) }
  }
}
