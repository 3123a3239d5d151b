import GraphLayout
import RetainGraph

extension ReferenceGraph {
  /// The graph of one explanation: its cycle or root path, ready to draw or export.
  ///
  /// ```swift
  /// let explanation = RetainExplainer().explain(alertController)
  /// print(ReferenceGraph(explanation).draw(fitting: Size(width: 80, height: 24)))
  /// ```
  public init(_ explanation: Explanation) {
    self.init(explanations: [explanation])
  }

  /// The graph of several explanations — a run's leaks — with the objects
  /// they share drawn once.
  ///
  /// Each explained object is marked leaked. The start of a root path is a
  /// root unless it is itself explained (a leak held by another leak hangs
  /// off that leak's cycle). The culprits are the references to look at
  /// (``RetainGraph/TraceReading``): in each cycle the one to break — the
  /// last closure capture on it (what `[weak self]` changes), else the edge
  /// that closes it as seen from the first object explained — and on a path
  /// from a true root those from the last object expected alive (the root,
  /// a long-lived object) to the leak; a cycle already marked by an earlier
  /// explanation gets no second one. An object nothing visible holds is a
  /// lone node saying so.
  ///
  /// Closure contexts become closure nodes that say where the closure was
  /// written and what it captures. A closure that captures only one object
  /// has that object as its context: there is no closure object, so the edge
  /// to the object carries the closure's name instead
  /// (`completion: closure in LoadFeedUseCase.execute()`).
  ///
  /// ```swift
  /// let graph = ReferenceGraph(explanations: leaks.map { explainer.explain($0) })
  /// print(graph.dot())
  /// ```
  public init(explanations: [Explanation]) {
    var builder = ExplanationGraphBuilder(explanations)
    self = builder.graph()
  }

  /// The graph of one leak among several: its own cycle or root path, and —
  /// when it hangs off another leak — that leak's graph too, so the picture
  /// shows why the holder is alive. Culprits are those of the whole run's
  /// graph (``init(explanations:)``), so a cycle explained from two of its
  /// objects shows the same culprit in both pictures.
  ///
  /// ```swift
  /// // DraftsScreen#1 is held by AlertController#1, whose handler captures it:
  /// let graph = ReferenceGraph(explanations: run, focusingOn: 1)
  /// graph.nodes.map(\.title)  // ["AlertController#1", "AlertAction#1", "closure", "DraftsScreen#1"]
  /// ```
  public init(explanations: [Explanation], focusingOn index: Int) {
    var builder = ExplanationGraphBuilder(explanations)
    self = builder.graph(focus: explanations.indices.contains(index) ? index : nil)
  }
}

/// Turns explanations into a ``GraphLayout/ReferenceGraph``: nodes by address, ids by name.
struct ExplanationGraphBuilder {
  private let explanations: [Explanation]
  private var order: [UInt] = []
  private var infos: [UInt: ObjectInfo] = [:]
  private var closureNames: [UInt: String] = [:]
  private var edges: [(from: UInt, to: UInt, reference: Reference)] = []
  private var culprits: Set<Int> = []
  private var roots: Set<UInt> = []
  private var notVisible: [UInt: Int] = [:]
  /// Per explanation: the edges of its path.
  private var pathEdges: [[Int]] = []

  init(_ explanations: [Explanation]) {
    self.explanations = explanations
  }

  /// The graph of every explanation, or only of the one at `focus` and the leaks it hangs off.
  mutating func graph(focus: Int? = nil) -> ReferenceGraph {
    let subjects = Set(explanations.map(\.object.address))
    for explanation in explanations {
      add(explanation.object)
      switch explanation.verdict {
      case .cycle(let path):
        let added = add(path)
        pathEdges.append(added)
        if !added.contains(where: culprits.contains) {
          culprits.formUnion(TraceReading(cycle: path).suspects.map { added[$0] })
        }
      case .heldByRoot(let path):
        let added = add(path)
        pathEdges.append(added)
        if !subjects.contains(path.start.address) { roots.insert(path.start.address) }
        let reading = TraceReading(rootPath: path) { subjects.contains($0.address) ? "it leaked" : nil }
        culprits.formUnion(reading.suspects.map { added[$0] })
      case .notVisible(let retainCount):
        pathEdges.append([])
        notVisible[explanation.object.address] = retainCount
      }
    }
    var shownEdges = Set(edges.indices)
    var shownNodes = order
    if let focus {
      (shownNodes, shownEdges) = focused(on: focus)
    }
    let ids = identifiers()
    var graph = ReferenceGraph()
    for address in shownNodes {
      let info = infos[address]!
      graph.addNode(
        ReferenceGraph.Node(
          id: ids[address]!, title: info.kind == .closureContext ? "closure" : info.name,
          kind: Self.kind(of: info), details: details(of: address, ids: ids), isRoot: roots.contains(address),
          isLeaked: subjects.contains(address)))
    }
    for (index, edge) in edges.enumerated() where shownEdges.contains(index) {
      let reference = edge.reference
      graph.addEdge(
        ReferenceGraph.Edge(
          from: ids[edge.from]!, to: ids[edge.to]!, label: reference.label,
          closure: reference.target.kind == .closureContext ? nil : reference.closure,
          strength: Self.strength(of: reference), isCulprit: culprits.contains(index)))
    }
    return graph
  }

  /// The nodes (the path's start first) and edges of explanation `focus`
  /// and of the explained leaks its root path starts from, transitively.
  private func focused(on focus: Int) -> (nodes: [UInt], edges: Set<Int>) {
    var included: [Int] = []
    var next: Int? = focus
    while let index = next, !included.contains(index) {
      included.append(index)
      guard case .heldByRoot(let path) = explanations[index].verdict else { break }
      next = explanations.firstIndex { $0.object.address == path.start.address }
    }
    var shownEdges = Set<Int>()
    var shown: Set<UInt> = []
    for index in included {
      shown.insert(explanations[index].object.address)
      for edge in pathEdges[index] {
        shownEdges.insert(edge)
        shown.formUnion([edges[edge].from, edges[edge].to])
      }
    }
    let first = explanations[focus].path?.start.address ?? explanations[focus].object.address
    return ([first] + order.filter { $0 != first && shown.contains($0) }, shownEdges)
  }

  // MARK: Collecting

  private mutating func add(_ info: ObjectInfo) {
    guard infos[info.address] == nil else { return }
    infos[info.address] = info
    order.append(info.address)
  }

  /// Adds the path's objects and references; returns the indices of its edges.
  @discardableResult
  private mutating func add(_ path: RetainPath) -> [Int] {
    add(path.start)
    var from = path.start.address
    var indices: [Int] = []
    for step in path.steps {
      add(step.target)
      if step.target.kind == .closureContext, let closure = step.closure,
        closureNames[step.target.address] == nil
      {
        closureNames[step.target.address] = closure
      }
      let to = step.target.address
      if let existing = edges.firstIndex(where: {
        $0.from == from && $0.to == to && $0.reference.label == step.label
      }) {
        indices.append(existing)
      } else {
        edges.append((from, to, step))
        indices.append(edges.count - 1)
      }
      from = to
    }
    return indices
  }

  // MARK: Naming

  /// Ids from names: a name only one object has is its own id
  /// (`AlertController_1`); shared names are numbered in order (`closure_1`, `closure_2`).
  private func identifiers() -> [UInt: String] {
    var byName: [String: [UInt]] = [:]
    for address in order {
      byName[ReferenceGraph.identifier(for: title(of: address)), default: []].append(address)
    }
    var ids: [UInt: String] = [:]
    for (name, addresses) in byName {
      if addresses.count == 1, infos[addresses[0]]!.kind != .closureContext {
        ids[addresses[0]] = name
      } else {
        for (number, address) in addresses.enumerated() { ids[address] = "\(name)_\(number + 1)" }
      }
    }
    return ids
  }

  private func title(of address: UInt) -> String {
    infos[address]!.kind == .closureContext ? "closure" : infos[address]!.name
  }

  /// For a closure: where it was written and what it captures; for an
  /// object nothing visible holds: that.
  private func details(of address: UInt, ids: [UInt: String]) -> [String] {
    var details: [String] = []
    if let name = closureNames[address], name.hasPrefix("closure in ") {
      details.append(String(name.dropFirst("closure ".count)))
    }
    if infos[address]!.kind == .closureContext {
      let captures = edges.filter { $0.from == address && $0.reference.label.hasPrefix("captures") }
      let captured = captures.map { edge in edge.reference.closure ?? infos[edge.to]!.name }
      if !captured.isEmpty { details.append("captures " + captured.joined(separator: ", ")) }
    }
    if let count = notVisible[address] {
      details.append("held by something not visible here (retain count \(count))")
    }
    return details
  }

  static func kind(of info: ObjectInfo) -> ReferenceGraph.Node.Kind {
    switch info.kind {
    case .object: .object
    case .closureContext: .closure
    case .collectionStorage: .collection
    // MemoryView's C blocks and roots on a path to a root: drawn as plain boxes.
    case .other, .mallocBlock, .root: .other
    }
  }

  static func strength(of reference: Reference) -> ReferenceGraph.Strength {
    if reference.isConservative { return .conservative }
    switch reference.strength {
    case .strong: return .strong
    case .weak: return .weak
    case .unowned: return .unowned
    case .unmanaged: return .unmanaged
    case .unknown: return .unknown
    }
  }
}
