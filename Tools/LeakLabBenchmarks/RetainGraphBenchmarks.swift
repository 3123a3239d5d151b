@_spi(Benchmarking) import RetainGraph

/// RetainGraph: describing one object, and cycle searches on chains closed
/// into a cycle, with Remote Mirror (safe and direct reads) beside the
/// `Mirror` fallback on the same graphs.
func runRetainGraphBenchmarks() {
  // The cycle searches alone: no memory search beside them (its own row).
  let safe = RetainExplainer(method: .only(.remoteMirror), limits: .unbounded, searchesMemory: false)
  let direct = RetainExplainer(
    method: .only(.remoteMirrorDirectReads), limits: .unbounded, searchesMemory: false)
  let mirror = RetainExplainer(method: .only(.mirror), limits: .unbounded, searchesMemory: false)
  let searching = RetainExplainer(method: .only(.remoteMirror), limits: .unbounded)
  let header = ["benchmark", "safe reads", "direct reads", "Mirror", "Mirror / safe"]
  var rows: [[String]] = []

  // Describe one object: its outgoing references, with the layout cache warm.
  let object = BenchmarkNode(0)
  object.next = BenchmarkNode(1)
  object.others = [BenchmarkNode(2), BenchmarkNode(3)]
  object.handler = { [weak object] in _ = object }
  let calls = 2_000
  func perCall(_ explainer: RetainExplainer) -> Duration {
    _ = explainer.references(of: object)
    return measure(repetitions: 15) {
      for _ in 0..<calls { _ = explainer.references(of: object) }
    } / calls
  }
  let describe = (perCall(safe), perCall(direct), perCall(mirror))
  rows.append(["describe one object (goal ≤ 5 µs)"] + columns(describe))
  // The same with safe reads done in dependent rounds (no speculative reads).
  RetainExplainer.setSpeculativeReads(false)
  let rounds = perCall(safe)
  RetainExplainer.setSpeculativeReads(true)
  rows.append(["describe one object, no speculation"] + columns((rounds, describe.1, describe.2)))

  // A memory search frees the engines' Remote Mirror contexts while it
  // forks its copy: the next describe makes a context again and fills its
  // caches. The first describe after an explanation that searched memory,
  // beside one with the caches warm (above) and the explanation itself.
  let clock = ContinuousClock()
  let held = BenchmarkNode(4)
  object.others.append(held)
  var explanations: [Duration] = []
  let first = median(repetitions: 7) {
    explanations.append(clock.measure { _ = searching.explain(held) })
    return clock.measure { _ = safe.references(of: object) }
  }
  let explanation = explanations.sorted()[explanations.count / 2]
  rows.append(["describe one object, first after a memory search", format(first), "", "", ""])
  rows.append(["explain with a memory search (frozen copy, model, search)", format(explanation), "", "", ""])
  object.others.removeLast()

  // Cycle search with no depth limit (goal: under 1 s for 10^5 nodes).
  for count in [1_000, 10_000, 100_000] {
    let nodes = (0..<count).map(BenchmarkNode.init)
    for index in 0..<count { nodes[index].next = nodes[(index + 1) % count] }
    let repetitions = count >= 100_000 ? 5 : 11
    func search(_ explainer: RetainExplainer) -> Duration {
      measure(repetitions: repetitions) {
        precondition(explainer.explain(nodes[0]).path?.steps.count == count, "cycle not found")
      }
    }
    rows.append(["cycle search, \(count) nodes"] + columns((search(safe), search(direct), search(mirror))))
    for node in nodes { node.next = nil }
  }
  printTable(title: "RetainGraph (medians)", header: header, rows: rows)
}

private func columns(_ durations: (safe: Duration, direct: Duration, mirror: Duration)) -> [String] {
  [
    format(durations.safe), format(durations.direct), format(durations.mirror),
    ratio(durations.mirror, durations.safe),
  ]
}

private final class BenchmarkNode {
  let id: Int
  var next: BenchmarkNode?
  var others: [BenchmarkNode] = []
  var handler: () -> Void = {}

  init(_ id: Int) { self.id = id }
}
