import RetainGraph

/// Names the leaked blocks of a stopped process and finds the references
/// among them.
///
/// A block whose first word is the metadata of a Swift heap object (a class,
/// a closure context, a box, collection storage) is named through Remote
/// Mirror reading the target, its fields and captures placed by the metadata;
/// any other block is a malloc block. Every word of every leaked block is then
/// looked at: one that points into another leaked block is an edge, labelled
/// by the field that holds it, with the field's strength when the metadata
/// types it exactly, else marked conservative. A weak reference holds a side
/// table, which holds the object: the edge goes to the object, weak. Side
/// tables themselves are folded into the object they belong to.
struct LeakGraphBuilder {
  let reflection: RemoteReflection
  /// The name of the function at an address (a closure's), or nil.
  let functionName: (UInt) -> String?
  /// Largest block scanned for references, in bytes.
  var maximumScan = 16 << 20

  /// One leaked block as found by the heap walk: its address and usable size.
  struct Block {
    var address: UInt
    var size: Int
  }

  func build(_ found: [Block]) -> LeakGraph {
    let sorted = found.sorted { $0.address < $1.address }
    let starts = sorted.map(\.address)
    let sizes = sorted.map(\.size)
    let contents = sorted.map { block in
      reflection.memory.bytes(at: block.address, count: min(block.size, maximumScan))
    }
    // Name each block; find the side tables of the objects.
    var layouts = [BlockLayout?](repeating: nil, count: sorted.count)
    var sideTableOwner = [Int?](repeating: nil, count: sorted.count)
    for index in sorted.indices where contents[index].count >= 16 {
      let metadata = Self.word(contents[index], 0)
      guard RemoteReflection.isPlausibleAddress(metadata),
        let layout = reflection.layout(metadata: metadata, instance: sorted[index].address)
      else { continue }
      layouts[index] = layout
      if let table = Self.sideTable(refCounts: Self.word(contents[index], 8)),
        let tableIndex = Self.index(of: table, in: starts, exact: true)
      {
        sideTableOwner[tableIndex] = index
      }
    }
    // Blocks of the graph: every block but the side tables.
    var graphIndex = [Int?](repeating: nil, count: sorted.count)
    var blocks: [LeakedBlock] = []
    for index in sorted.indices where sideTableOwner[index] == nil {
      graphIndex[index] = blocks.count
      blocks.append(describe(sorted[index], layout: layouts[index]))
    }
    for (table, owner) in sideTableOwner.enumerated() {
      guard let owner, let ownerIndex = graphIndex[owner] else { continue }
      blocks[ownerIndex].size += sorted[table].size
    }
    var edges: [LeakEdge] = []
    for index in sorted.indices {
      guard let from = graphIndex[index] else { continue }
      var seen = Set<EdgeKey>()
      forEachReference(in: contents[index], of: sorted[index], layout: layouts[index]) {
        word, offset, role, label in
        var target = word
        var strength = ReferenceStrength.strong
        var isConservative = false
        switch role {
        case .exact(.weak):
          // The weak field holds the side table; the side table holds the object.
          if let table = Self.index(of: word, in: starts, exact: true) {
            target = Self.word(contents[table], 0)
          } else {
            guard let object = reflection.memory.word(at: word) else { return }
            target = object
          }
          strength = .weak
        case .exact(let exact): strength = exact
        case .closureContext: break
        case .conservative: isConservative = true
        case .closureFunction: return
        }
        guard let targetIndex = Self.index(of: Self.normalised(target), in: starts, sizes: sizes),
          let to = graphIndex[targetIndex]
        else { return }
        if to == from && isConservative { return }  // a block's pointers into itself
        if case .exact = role, starts[targetIndex] != target { isConservative = true }
        var closure: String?
        if role == .closureContext, offset >= 8 {
          closure = functionName(Self.word(contents[index], offset - 8)) ?? "closure"
        }
        let key = EdgeKey(to: to, label: label)
        guard seen.insert(key).inserted else { return }
        edges.append(
          LeakEdge(
            from: from, to: to, label: label, strength: strength, isConservative: isConservative,
            closure: closure))
      }
    }
    return LeakGraph(blocks: blocks, edges: edges)
  }

  private struct EdgeKey: Hashable {
    var to: Int
    var label: String
  }

  private func describe(_ block: Block, layout: BlockLayout?) -> LeakedBlock {
    guard let layout else {
      return LeakedBlock(
        address: block.address, size: block.size, kind: .mallocBlock, typeName: "malloc block")
    }
    let kind: LeakedBlock.Kind
    switch layout.kind {
    case .object: kind = .object
    case .closureContext: kind = .closureContext
    case .box: kind = .box
    case .arrayStorage, .hashedStorage: kind = .collectionStorage
    }
    return LeakedBlock(
      address: block.address, size: block.size, kind: kind, typeName: layout.typeName,
      qualifiedTypeName: layout.kind == .object ? layout.qualifiedName : nil)
  }

  /// Calls `body` with every word of a block that may point somewhere:
  /// the word, its offset, what it is to the field holding it, and a label.
  private func forEachReference(
    in bytes: [UInt8], of block: Block, layout: BlockLayout?,
    _ body: (UInt, Int, FieldSlot.WordRole, String) -> Void
  ) {
    // A Swift object's header (metadata, reference counts) is not a reference.
    var offset = layout == nil ? 0 : 16
    while offset + 8 <= bytes.count {
      let word = Self.word(bytes, offset)
      defer { offset += 8 }
      guard word >= 0x1_0000 else { continue }
      if let (slot, role) = layout?.slot(at: offset) {
        body(word, offset, role, slot.label.isEmpty ? "word \(offset / 8)" : slot.label)
      } else {
        body(word, offset, .conservative, "word \(offset / 8)")
      }
    }
  }

  // MARK: Words

  static func word(_ bytes: [UInt8], _ offset: Int) -> UInt {
    guard offset >= 0, offset + 8 <= bytes.count else { return 0 }
    return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt.self) }
  }

  /// A pointer without the tag bits Swift keeps in a pointer's top byte
  /// (strings, enums with payloads): the address it carries.
  static func normalised(_ word: UInt) -> UInt {
    let address = word & 0x00FF_FFFF_FFFF_FFFF
    return address < 0x0000_8000_0000_0000 ? address : word
  }

  /// The side table a Swift object's reference-count word points to, if it
  /// has one (x86_64: both top bits set, the table's address shifted right by 3).
  static func sideTable(refCounts: UInt) -> UInt? {
    guard refCounts >> 62 == 3 else { return nil }
    return (refCounts & 0x3FFF_FFFF_FFFF_FFFF) << 3
  }

  /// The index of the block starting at `address` (exact), or containing it.
  static func index(of address: UInt, in starts: [UInt], exact: Bool = false, sizes: [Int] = []) -> Int? {
    var low = 0
    var high = starts.count
    while low < high {
      let middle = (low + high) / 2
      if starts[middle] <= address { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let candidate = low - 1
    if starts[candidate] == address { return candidate }
    if exact || sizes.isEmpty { return nil }
    return address < starts[candidate] + UInt(sizes[candidate]) ? candidate : nil
  }
}
