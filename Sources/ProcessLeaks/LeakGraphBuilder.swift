import MemoryView
import RetainGraph

/// Names the leaked blocks of a stopped process and finds the references
/// among them.
///
/// A block whose first word is the metadata of a Swift heap object (a class,
/// a closure context, a box, collection storage) is named through Remote
/// Mirror reading the target, its fields and captures placed by the metadata;
/// a C block whose first word points at a known symbol is named after it
/// (`Block`, `dispatch_source`); any other block is a malloc block. Every word
/// of every leaked block (of a class instance: up to its instance size) is
/// then looked at: one that points into another leaked block is an edge,
/// labelled by the field that holds it, with the field's strength when the
/// metadata types it exactly, else marked conservative. A weak reference
/// holds a side table, which holds the object: the edge goes to the object,
/// weak. Side tables of leaked objects are folded into their object; a side
/// table whose object is gone is shown as one.
struct LeakGraphBuilder {
  let reflection: RemoteReflection
  let images: ImageList
  let extents: InstanceExtents
  /// The image of the program itself: types defined there are preferred as
  /// the object a cycle is shown from.
  let program: LoadedImage?
  /// The name of the function at an address (a closure's), or nil.
  let functionName: (UInt) -> String?
  /// Largest block scanned for references, in bytes.
  var maximumScan = 16 << 20

  /// One leaked block as found by the heap walk: its address and usable size.
  struct Block {
    var address: UInt
    var size: Int
  }

  /// What the builder learnt about each leaked block, by address order.
  struct Found {
    var blocks: [Block]
    var starts: [UInt]
    var sizes: [Int]
    var contents: [[UInt8]]
    var layouts: [BlockLayout?]
    /// For a side table of a leaked object: the object.
    var sideTableOwner: [Int?]
    /// Side tables whose object is gone (reached from a weak field).
    var orphanSideTables: Set<Int>
  }

  func build(_ blocks: [Block]) -> LeakGraph {
    let found = examine(blocks.sorted { $0.address < $1.address })
    var graphIndex = [Int?](repeating: nil, count: found.blocks.count)
    var described: [LeakedBlock] = []
    for index in found.blocks.indices where found.sideTableOwner[index] == nil {
      graphIndex[index] = described.count
      described.append(describe(index, in: found))
    }
    for (table, owner) in found.sideTableOwner.enumerated() {
      guard let owner, let ownerIndex = graphIndex[owner] else { continue }
      described[ownerIndex].size += found.sizes[table]
      described[ownerIndex].foldedBlocks += 1
    }
    var edges: [LeakEdge] = []
    for index in found.blocks.indices {
      guard let from = graphIndex[index], !found.orphanSideTables.contains(index) else { continue }
      edges += self.edges(from: index, graphIndex: from, in: found, mapping: graphIndex)
    }
    return LeakGraph(blocks: described, edges: edges)
  }

  /// Reads every block, names the Swift ones and finds the side tables.
  private func examine(_ blocks: [Block]) -> Found {
    let starts = blocks.map(\.address)
    var found = Found(
      blocks: blocks, starts: starts, sizes: blocks.map(\.size),
      contents: blocks.map { reflection.memory.bytes(at: $0.address, count: min($0.size, maximumScan)) },
      layouts: Array(repeating: nil, count: blocks.count),
      sideTableOwner: Array(repeating: nil, count: blocks.count), orphanSideTables: [])
    for index in blocks.indices where found.contents[index].count >= 16 {
      let metadata = Self.word(found.contents[index], 0)
      guard RemoteReflection.isPlausibleAddress(metadata),
        let layout = reflection.layout(metadata: metadata, instance: blocks[index].address)
      else { continue }
      found.layouts[index] = layout
      if let table = Self.sideTable(refCounts: Self.word(found.contents[index], 8)),
        let tableIndex = Self.index(of: table, in: starts, exact: true)
      {
        found.sideTableOwner[tableIndex] = index
      }
    }
    // A weak field that holds a leaked block no leaked object owns: a side table of a dead object.
    for index in blocks.indices {
      guard let layout = found.layouts[index] else { continue }
      for slot in layout.slots where slot.role == .reference(.weak) {
        let word = Self.word(found.contents[index], slot.offset)
        if let table = Self.index(of: word, in: starts, exact: true), found.sideTableOwner[table] == nil,
          found.layouts[table] == nil
        {
          found.orphanSideTables.insert(table)
        }
      }
    }
    return found
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
