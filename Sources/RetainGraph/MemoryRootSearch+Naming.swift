import MemoryView

extension MemoryRootSearch {
  /// Names a path of blocks: Swift objects by type with their fields,
  /// captures and strengths; other blocks as `malloc block, 96 B`; the root
  /// by the global's symbol and image, or the thread.
  func describe(_ path: HeapPath) -> (RetainPath, metadata: [UInt: UInt]) {
    let heap = snapshot.heap
    var metadata: [UInt: UInt] = [:]
    var steps: [Reference] = []
    func info(_ index: Int) -> ObjectInfo {
      let address = heap[index].address
      if kind(of: index) != nil {
        let word = session.word(at: address) ?? 0
        var (info, objectMetadata) = session.objectInfo(at: address, metadata: word)
        if info.kind == .object, objectMetadata != 0 { metadata[address] = objectMetadata }
        if info.typeName == "__NSCFType", let name = HeapBlockNames.coreFoundationTypeName(of: address) {
          info.typeName = name
          info.name = name
        }
        return info
      }
      return HeapBlockNames.info(for: heap[index], in: snapshot)
    }
    let start: ObjectInfo
    if path.root.wordAddress == 0, case .registered = path.root.kind {
      start = info(path.blocks[0])
    } else {
      start = ObjectInfo(
        address: path.root.wordAddress, typeName: "root",
        name: RootNames.name(of: path.root, in: snapshot), kind: .root)
      steps.append(
        Reference(label: "", strength: .strong, isConservative: true, target: info(path.blocks[0])))
    }
    var position = 0
    let blocks = path.blocks
    while position < blocks.count - 1 {
      let source = blocks[position]
      // A Swift object's own reference to a block further on (through a
      // collection's storage, which the reference passes over) names the step.
      if kind(of: source) != nil,
        let (edge, reached) = preciseEdge(from: source, along: blocks[(position + 1)...])
      {
        steps.append(session.describe(edge, target: info(blocks[reached])))
        position = reached
        continue
      }
      let target = blocks[position + 1]
      steps.append(
        Reference(
          label: wordLabel(in: source, pointingInto: target), strength: .strong, isConservative: true,
          target: info(target)))
      position += 1
    }
    return (RetainPath(start: start, steps: steps), metadata)
  }

  /// The strong reference of Swift object `source` to one of the next two
  /// blocks of the path (the farthest), and the position it reaches.
  private func preciseEdge(from source: Int, along rest: ArraySlice<Int>) -> (RawEdge, Int)? {
    var edges: [RawEdge] = []
    session.edges(of: snapshot.heap[source].address, strongOnly: true, into: &edges)
    for position in rest.prefix(2).indices.reversed() {
      let address = snapshot.heap[rest[position]].address
      if let edge = edges.first(where: { $0.target == address && !$0.isConservative }) {
        return (edge, position)
      }
    }
    return nil
  }

  /// `word 3`: the first word of block `source` that points into block `target`.
  private func wordLabel(in source: Int, pointingInto target: Int) -> String {
    let block = snapshot.heap[source]
    let range = snapshot.heap[target].range
    let bytes = snapshot.memory.bytes(at: block.address, count: Int(min(block.size, 1 << 20)))
    let word = bytes.withUnsafeBytes { raw in
      (0..<raw.count / 8).first {
        range.contains(raw.load(fromByteOffset: $0 * 8, as: UInt.self) & 0x00FF_FFFF_FFFF_FFFF)
      }
    }
    return word.map { "word \($0)" } ?? "word ?"
  }
}
