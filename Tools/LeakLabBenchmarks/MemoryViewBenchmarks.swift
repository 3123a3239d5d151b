import Glibc
import HeapModel
import MemoryView
import RetainGraph

/// The heap model: a heap of 10^6 Swift objects (about 100 MB), held from a
/// global through an array of 10^5 chains of 10; one object at the end of a
/// chain is the one asked about.
func runMemoryViewBenchmarks() {
  let chains = 100_000
  let depth = 10
  benchmarkHeads = (0..<chains).map { _ in
    let head = HeapNode()
    var node = head
    for _ in 1..<depth {
      let next = HeapNode()
      node.next = next
      node = next
    }
    return head
  }
  let holder = HeadsHolder(benchmarkHeads)
  var tail = benchmarkHeads[chains / 2]
  while let next = tail.next { tail = next }
  let target = UInt(bitPattern: Unmanaged.passUnretained(tail).toOpaque())
  var rows: [[String]] = []
  var facts: [String] = []
  // Wall time and this thread's CPU time (user + system: the copies are the
  // kernel's), medians of the same runs: CPU time is what other processes on
  // a loaded machine do not inflate.
  func timed(_ label: String, repetitions: Int, _ body: () -> Void) -> Duration {
    let clock = ContinuousClock()
    var walls: [Duration] = []
    var cpus: [Duration] = []
    for _ in 0..<repetitions {
      var cpu = Duration.zero
      walls.append(clock.measure { cpu = cpuTime(.thread, body) })
      cpus.append(cpu)
    }
    let wall = walls.sorted()[repetitions / 2]
    let cpu = cpus.sorted()[repetitions / 2]
    rows.append([label, format(wall), format(cpu)])
    return cpu
  }

  let running = timed("heap walk (maps, images, threads, blocks, roots)", repetitions: 5) {
    _ = try? ProcessSnapshot()
  }
  // What the explainer does: fork a stopped copy, walk it, kill it.
  let frozen = timed("heap walk of a frozen copy (fork, walk, kill)", repetitions: 5) {
    _ = try? ProcessSnapshot.ofFrozenCopy()
  }
  rows[rows.count - 1].append(ratio(frozen, running) + " the running walk's CPU time")
  guard let snapshot = try? ProcessSnapshot(), let block = snapshot.heap.index(containing: target) else {
    print("MemoryView: cannot take a snapshot of this process")
    return
  }
  let heapMB = Double(snapshot.heap.liveBytes) / 1_048_576
  facts.append("heap: \(snapshot.heap.count) live blocks, \(rounded(heapMB)) MB live")

  _ = timed("heap model, every block typed, its references read (goal ≤ 150 ms CPU)", repetitions: 5) {
    _ = try? HeapModel(snapshot: snapshot)
  }
  guard let model = try? HeapModel(snapshot: snapshot) else {
    print("MemoryView: cannot build the heap model of this process")
    return
  }
  _ = timed("leak mark from the roots", repetitions: 7) {
    _ = model.reachableFromRoots()
  }
  _ = timed("path to a root on the model", repetitions: 7) {
    let path = model.pathToRoot(from: block, accepts: { _ in true }).path
    guard path?.blocks.count ?? 0 >= depth else {
      fatalError(
        "no path through the chain: \(path.map { "\($0.blocks.count) blocks from \($0.root.kind)" } ?? "none")"
      )
    }
  }
  let whole = timed("path to a root, whole (walk + model + search) (goal ≤ 200 ms)", repetitions: 5) {
    guard let fresh = try? ProcessSnapshot(), let block = fresh.heap.index(containing: target),
      let model = try? HeapModel(snapshot: fresh)
    else { return }
    _ = model.pathToRoot(from: block, accepts: { _ in true })
  }

  // The same question answered forwards from a registered root, Mirror style.
  if getenv("MV_SKIP_MIRROR") == nil {
    let mirror = RetainExplainer(method: .only(.mirror), limits: .unbounded)
    mirror.registerRoot(holder, name: "heads")
    let forward = timed("Mirror-style forward walk from the registered root", repetitions: 3) {
      precondition(mirror.explain(tail).path != nil, "the Mirror walk found no path")
    }
    rows[rows.count - 1].append(ratio(forward, whole) + " the whole path's CPU time")
  }

  facts.append(
    "memory: block table \(megabytes(snapshot.heap.tableBytes)), model \(megabytes(model.tableBytes))"
      + " (\(model.figures.edges) references between blocks, \(model.figures.exactEdges) named by metadata,"
      + " \(model.figures.rootEdges) from roots), \(rounded(Double(model.figures.bytesRead) / 1_048_576)) MB read"
  )
  printTable(title: "Heap model (medians)", header: ["benchmark", "wall", "CPU", ""], rows: rows)
  for fact in facts { print(fact) }
  withExtendedLifetime(holder) {}
  benchmarkHeads = []
}

private func megabytes(_ bytes: Int) -> String { "\(rounded(Double(bytes) / 1_048_576)) MB" }

nonisolated(unsafe) private var benchmarkHeads: [HeapNode] = []

private final class HeapNode {
  var next: HeapNode?
  var payload: (Int, Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7, 8)
}

private final class HeadsHolder {
  let heads: [HeapNode]
  init(_ heads: [HeapNode]) { self.heads = heads }
}
