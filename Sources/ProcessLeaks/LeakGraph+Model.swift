import HeapModel
import RetainGraph

extension LeakGraph {
  /// The graph of the `leaked` blocks of `model`: each named, and the
  /// references among them labelled.
  ///
  /// An object's weak-reference side table is folded into the object; a weak
  /// reference leads to the object its side table names. A word no metadata
  /// counts into a Swift object whose strong count its exact references
  /// already account for is stale, and no edge.
  public init(model: HeapModel, leaked: [Int]) {
    let leakedSet = Set(leaked)
    var graphIndex: [Int: Int] = [:]
    var blocks: [LeakedBlock] = []
    var folded: [(table: Int, owner: Int)] = []
    for block in leaked {
      if let owner = model.sideTableOwner(of: block), leakedSet.contains(owner) {
        folded.append((block, owner))
        continue
      }
      graphIndex[block] = blocks.count
      blocks.append(Self.describe(block, in: model))
    }
    for (table, owner) in folded {
      guard let index = graphIndex[owner] else { continue }
      blocks[index].size += Int(model.block(table).size)
      blocks[index].foldedBlocks += 1
    }
    var edges: [LeakEdge] = []
    for block in leaked {
      guard let from = graphIndex[block] else { continue }
      let outgoing = model.edges(from: block).filter { $0.kind != .back }
      guard !outgoing.isEmpty else { continue }
      let labels = model.labels(ofEdgesFrom: block)
      var seen = Set<String>()
      for edge in outgoing {
        var target = edge.target
        if edge.kind == .weak, let owner = model.sideTableOwner(of: target) { target = owner }
        guard let to = graphIndex[target] else { continue }
        if edge.kind == .conservative || edge.kind == .unmanaged {
          guard model.holdsMemory(edge), !(to == from && edge.kind == .conservative) else { continue }
        }
        let label = labels[edge.position] ?? HeapModel.EdgeLabel(text: "word \(edge.word)", closure: nil)
        guard seen.insert("\(to) \(label.text)").inserted else { continue }
        edges.append(
          LeakEdge(
            from: from, to: to, label: label.text, strength: Self.strength(edge.kind),
            isConservative: edge.kind == .conservative, closure: label.closure,
            keepsAlive: edge.kind == .weak ? false : model.holdsLife(edge)))
      }
    }
    self.init(blocks: blocks, edges: edges)
  }

  static func strength(_ kind: EdgeKind) -> ReferenceStrength {
    switch kind {
    case .strong, .conservative, .back: .strong
    case .weak: .weak
    case .unowned: .unowned
    case .unmanaged: .unmanaged
    }
  }

  static func describe(_ block: Int, in model: HeapModel) -> LeakedBlock {
    let heapBlock = model.block(block)
    let type = model.type(of: block)
    let kind: LeakedBlock.Kind
    switch model.kind(of: block) {
    case .object: kind = .object
    case .closureContext: kind = .closureContext
    case .box: kind = .box
    case .arrayStorage, .dictionaryStorage, .setStorage, .stringStorage: kind = .collectionStorage
    case .task: kind = .task
    default: kind = .mallocBlock
    }
    var described = LeakedBlock(
      address: heapBlock.address, size: Int(heapBlock.size), kind: kind, typeName: type.name,
      qualifiedTypeName: kind == .object ? type.qualifiedName : nil)
    described.isProgramType = type.isProgramType
    return described
  }
}
