/// A kind of leak: the leaks whose retain cycle reads the same — the same
/// types joined by the same references — or, for a leak without a cycle,
/// whose root has the same type; addresses, sizes and whatever hangs below
/// are left out. A server that leaks one handler per request has one kind,
/// counted once per request.
///
/// ```text
/// 20 × SessionHandler ⇄ ChannelHandlerContext (context, handler)  [4c1e07a2]
/// ```
public struct LeakKind: Sendable, Hashable {
  /// The signature's id: the same in every run, on every machine (a hash
  /// of ``signature``).
  public var id: String
  /// `SessionHandler ⇄ ChannelHandlerContext (context, handler)`: the cycle
  /// from its root along its shortest way back, with the references' labels;
  /// `Payload` for a leak without a cycle (a C block with a recorded site:
  /// `malloc block (from _dispatch_continuation_alloc_from_heap)`).
  public var signature: String
  /// Whether the leaks are retain cycles.
  public var isCycle: Bool
  /// Each leak's root block (the cycle's root, or the block nothing holds),
  /// in the graph's order: the first is the one drawn.
  public var roots: [Int]
  /// How many leaked blocks the kind's leaks hold, roots and what hangs
  /// below them included (a block two leaks hold counts for the first).
  public var blocks: Int
  /// Their bytes.
  public var bytes: Int

  /// How many leaks of this kind there are.
  public var count: Int { roots.count }

  /// `20 × SessionHandler ⇄ ChannelHandlerContext (context, handler)  [4c1e07a2]`.
  public var line: String { "\(count) × \(signature)  [\(id)]" }

  /// The id of `signature`: FNV-1a over its UTF-8 bytes, 32 bits in hex.
  public static func id(of signature: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in signature.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    let digits = String(folded, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }
}

extension LeakReport {
  /// The kinds of `graph`'s leaks, the most leaks first, and for each block
  /// the index of the kind that holds it.
  ///
  /// A leak is a retain cycle (a strongly connected component of the
  /// references that keep blocks alive), whatever holds it — a stale word
  /// in one leaked task's frames must not make two leaks one — or a block
  /// outside any cycle that nothing holds. A cycle's members belong to it;
  /// what a leak holds below belongs to the first leak that holds it.
  static func kinds(of graph: LeakGraph, cycles: [RetainCycle], keepAlive: LeakGraph.KeepAlive)
    -> (kinds: [LeakKind], kindOfBlock: [Int])
  {
    let count = graph.blocks.count
    let outgoing = graph.outgoing()
    let successors = keepAlive.successors
    let component = keepAlive.component
    var isHeld = [Bool](repeating: false, count: count)
    for edge in graph.edges where edge.keepsAlive && component[edge.from] != component[edge.to] {
      isHeld[component[edge.to]] = true
    }
    let cycleOfComponent = Dictionary(
      cycles.map { (component[$0.root], $0) }, uniquingKeysWith: { first, _ in first })
    // Every cycle, and each block outside a cycle that nothing holds, in block order.
    var leaks: [(root: Int, members: [Int], signature: String, isCycle: Bool)] = cycles.map {
      ($0.root, $0.members, signature(of: $0, in: graph, outgoing: outgoing), true)
    }
    for block in 0..<count where !isHeld[component[block]] && cycleOfComponent[component[block]] == nil {
      leaks.append((block, [block], groupName(of: graph.blocks[block]), false))
    }
    leaks.sort { $0.root < $1.root }
    var kindOfBlock = [Int](repeating: -1, count: count)
    var indexOfSignature: [String: Int] = [:]
    var kinds: [LeakKind] = []
    var kindOfLeak: [Int] = []
    for leak in leaks {
      let index =
        indexOfSignature[leak.signature]
        ?? {
          kinds.append(
            LeakKind(
              id: LeakKind.id(of: leak.signature), signature: leak.signature, isCycle: leak.isCycle,
              roots: [],
              blocks: 0, bytes: 0))
          indexOfSignature[leak.signature] = kinds.count - 1
          return kinds.count - 1
        }()
      kinds[index].roots.append(leak.root)
      kindOfLeak.append(index)
      for member in leak.members {
        kindOfBlock[member] = index
        kinds[index].blocks += 1
        kinds[index].bytes += graph.blocks[member].size
      }
    }
    // What each leak holds below, first come.
    for (leak, index) in zip(leaks, kindOfLeak) {
      var queue = leak.members
      while let block = queue.popLast() {
        for next in successors[block] where kindOfBlock[next] == -1 {
          kindOfBlock[next] = index
          kinds[index].blocks += 1
          kinds[index].bytes += graph.blocks[next].size
          queue.append(next)
        }
      }
    }
    let order = kinds.indices.sorted {
      (kinds[$0].count, kinds[$0].bytes, kinds[$1].signature) > (
        kinds[$1].count, kinds[$1].bytes, kinds[$0].signature
      )
    }
    var newIndex = [Int](repeating: 0, count: kinds.count)
    for (position, old) in order.enumerated() { newIndex[old] = position }
    return (order.map { kinds[$0] }, kindOfBlock.map { $0 < 0 ? $0 : newIndex[$0] })
  }

  /// The most types a signature names along a cycle's way back.
  static let longestWayDrawn = 8

  /// The signature of `cycle`: its root's type, then the types along the
  /// shortest way back to the root through the cycle's members (references
  /// tried by label, then by type, so equal cycles give equal signatures),
  /// then the references' labels. A word no metadata describes is `…`.
  static func signature(of cycle: RetainCycle, in graph: LeakGraph, outgoing: [[LeakEdge]]) -> String {
    let members = Set(cycle.members)
    let blocks = graph.blocks
    func label(_ edge: LeakEdge) -> String { edge.isConservative ? "…" : edge.label }
    func ordered(_ edges: [LeakEdge]) -> [LeakEdge] {
      edges.filter { $0.keepsAlive && members.contains($0.to) }
        .sorted { (label($0), blocks[$0.to].typeName) < (label($1), blocks[$1.to].typeName) }
    }
    // Breadth first from the root: the first edge back to it closes the shortest way.
    var parent: [Int: LeakEdge] = [:]
    var queue = [cycle.root]
    var head = 0
    var closing: LeakEdge?
    search: while head < queue.count {
      let block = queue[head]
      head += 1
      for edge in ordered(outgoing[block]) {
        if edge.to == cycle.root {
          closing = edge
          break search
        }
        if parent[edge.to] == nil {
          parent[edge.to] = edge
          queue.append(edge.to)
        }
      }
    }
    guard let closing else { return blocks[cycle.root].typeName }
    var path = [closing]
    var block = closing.from
    while block != cycle.root, let edge = parent[block] {
      path.append(edge)
      block = edge.from
    }
    path.reverse()
    var types = path.map { blocks[$0.from].typeName }
    var labels = path.map(label)
    if types.count > longestWayDrawn {
      // A cycle of thousands of nodes reads by its start and its length.
      let rest = types.count - longestWayDrawn
      types = Array(types.prefix(longestWayDrawn)) + ["… \(rest) more"]
      labels = Array(labels.prefix(longestWayDrawn)) + ["…"]
    }
    let joined = "(" + labels.joined(separator: ", ") + ")"
    switch types.count {
    case 1: return "\(types[0]) ↻ \(joined)"
    case 2: return "\(types[0]) ⇄ \(types[1]) \(joined)"
    default: return (types + [types[0]]).joined(separator: " → ") + " " + joined
    }
  }
}
