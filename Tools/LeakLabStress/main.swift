// The concurrent-mutation stress program (issue 13): two threads rewire a
// 51-node graph while the main thread explains and lists references of its
// nodes; with or without a naming function. Exit status 0 means no crash.
//
//   LeakLabStress [--seconds 20] [--naming] [--direct] [--seed N]
import Foundation
import LeakClock
import LeakDetector
import RetainGraph
import Synchronization

final class StressNode: @unchecked Sendable {
  let id: Int
  var next: StressNode?
  var items: [StressNode] = []
  var table: [Int: StressNode] = [:]
  var action: (() -> Void)?
  weak var back: StressNode?
  var payload: [Int]

  init(id: Int) {
    self.id = id
    payload = Array(repeating: id, count: id % 7)
  }
}

/// The graph the writers rewire under their own lock; the explainer reads it without.
final class StressGraph: @unchecked Sendable {
  let lock = NSLock()
  var nodes: [StressNode]
  var nextID = 0

  init(count: Int) {
    nodes = (0..<count).map { StressNode(id: $0) }
    nextID = count
    for node in nodes { wire(node, seed: node.id) }
  }

  /// Picks a node and holds it strongly, as a caller of `explain` does.
  func pick(_ random: inout SplitMix) -> StressNode {
    lock.withLock { nodes[Int(random.next() % UInt64(nodes.count))] }
  }

  /// One change to the graph: new objects are made outside the lock, then
  /// swapped in under it (the old ones die when the lock is released).
  func mutate(_ random: inout SplitMix) {
    let index = Int(random.next() % UInt64(nodes.count))
    let kind = random.next() % 8
    let other = Int(random.next() % 1024)
    let fresh = kind == 0 ? StressNode(id: Int(truncatingIfNeeded: random.next() % 100_000)) : nil
    let count = Int(random.next() % 6)
    var dropped: [StressNode] = []
    lock.withLock {
      let target = nodes[index]
      func pick(_ salt: Int) -> StressNode { nodes[(other &+ salt * 31) % nodes.count] }
      switch kind {
      case 0:
        // The replaced node lets go of everything, so the graph stays bounded;
        // it dies once no node points at it any more.
        target.next = nil
        target.items = []
        target.table = [:]
        target.action = nil
        dropped.append(target)
        nodes[index] = fresh!
        wire(fresh!, seed: other)
      case 1: target.next = pick(1)
      case 2:
        dropped = target.items
        target.items = (0..<count).map { pick($0) }
      case 3:
        var table: [Int: StressNode] = [:]
        for key in 0..<count { table[key] = pick(key) }
        target.table = table
      case 4:
        let captured = pick(2)
        target.action = { _ = captured.id }
      case 5: target.back = pick(3)
      case 6:
        target.next = nil
        target.items = []
        target.action = nil
      default: target.payload.append(index)
      }
    }
    // The last references go here, outside the lock: deinits run unlocked.
    dropped.removeAll()
  }

  private func wire(_ node: StressNode, seed: Int) {
    let count = nodes.count
    guard count > 0 else { return }
    node.next = nodes[abs(seed) % count]
    node.items = [nodes[abs(seed / 3) % count], nodes[abs(seed / 5) % count]]
    node.table = [1: nodes[abs(seed / 7) % count]]
    let captured = nodes[abs(seed / 11) % count]
    node.action = { _ = captured.id }
    node.back = nodes[abs(seed / 13) % count]
  }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The command line: `--seconds S`, `--naming`, `--direct`, `--seed N`.
struct Options {
  var seconds = 20.0
  var naming = false
  var direct = false
  var seed: UInt64 = 1

  static func parse(_ arguments: [String]) -> Options? {
    var options = Options()
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--seconds":
        guard let value = iterator.next().flatMap(Double.init), value > 0 else { return nil }
        options.seconds = value
      case "--seed":
        guard let value = iterator.next().flatMap({ UInt64($0) }) else { return nil }
        options.seed = value
      case "--naming": options.naming = true
      case "--direct": options.direct = true
      default: return nil
      }
    }
    return options
  }
}

func run(_ options: Options) {
  let graph = StressGraph(count: 51)
  let detector = LeakDetector(scheduler: ManualScheduler())
  let name: @Sendable (AnyObject) -> String? = { object in detector.name(of: object) }
  let naming = options.naming ? name : nil
  let explainer = RetainExplainer(
    method: options.direct ? .only(.remoteMirrorDirectReads) : .automatic, naming: naming)
  let stop = Atomic<Bool>(false)
  let mutations = Atomic<Int>(0)
  let seed = options.seed
  let writers = (0..<2).map { index in
    Thread {
      var random = SplitMix(state: seed &+ UInt64(index) &* 7919)
      var count = 0
      while !stop.load(ordering: .relaxed) {
        graph.mutate(&random)
        count += 1
      }
      mutations.add(count, ordering: .relaxed)
    }
  }
  writers.forEach { $0.start() }

  var random = SplitMix(state: seed)
  var explains = 0
  var paths = 0
  let start = Date()
  while Date().timeIntervalSince(start) < options.seconds {
    let node = graph.pick(&random)
    if explainer.explain(node).path != nil { paths += 1 }
    _ = explainer.references(of: node)
    explains += 1
  }
  stop.store(true, ordering: .relaxed)
  Thread.sleep(forTimeInterval: 0.1)
  print(
    "explains \(explains) (\(paths) with a path), reference lists \(explains), "
      + "mutations \(mutations.load(ordering: .relaxed)), naming \(options.naming ? "on" : "off"), "
      + "\(options.direct ? "direct" : "safe") reads, \(options.seconds) s")
}

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
  FileHandle.standardError.write(
    Data("usage: LeakLabStress [--seconds S] [--naming] [--direct] [--seed N]\n".utf8))
  exit(2)
}
run(options)
