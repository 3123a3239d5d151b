import MemoryView
import RetainGraph

extension LeakGraphBuilder {
  /// Names a leaked block.
  func describe(_ index: Int, in found: Found) -> LeakedBlock {
    let block = found.blocks[index]
    if found.orphanSideTables.contains(index) {
      return LeakedBlock(
        address: block.address, size: block.size, kind: .mallocBlock, typeName: "weak reference side table")
    }
    guard let layout = found.layouts[index] else {
      let name = cName(firstWord: Self.word(found.contents[index], 0)) ?? "malloc block"
      return LeakedBlock(address: block.address, size: block.size, kind: .mallocBlock, typeName: name)
    }
    let kind: LeakedBlock.Kind
    switch layout.kind {
    case .object: kind = .object
    case .closureContext: kind = .closureContext
    case .box: kind = .box
    case .arrayStorage, .hashedStorage: kind = .collectionStorage
    }
    var described = LeakedBlock(
      address: block.address, size: block.size, kind: kind, typeName: layout.typeName,
      qualifiedTypeName: layout.kind == .object ? layout.qualifiedName : nil)
    if let program, kind == .object {
      described.isProgramType = program.contains(Self.word(found.contents[index], 0))
    }
    return described
  }

  /// The name of a C block whose first word points at a symbol: a Clang
  /// block (`Block`), a libdispatch object (`dispatch_source`).
  func cName(firstWord: UInt) -> String? {
    guard firstWord >= 0x1_0000, let image = images.image(containing: firstWord),
      let symbol = image.symbol(containing: firstWord, kinds: .object)
    else { return nil }
    let name = symbol.name
    if name.hasPrefix("_NSConcrete") && name.hasSuffix("Block") { return "Block" }
    if name.hasPrefix("__OS_dispatch_") && name.hasSuffix("_vtable") {
      return String(name.dropFirst("__OS_".count).dropLast("_vtable".count))
    }
    return nil
  }

  /// The edges out of block `index`.
  func edges(from index: Int, graphIndex from: Int, in found: Found, mapping: [Int?]) -> [LeakEdge] {
    let bytes = found.contents[index]
    let layout = found.layouts[index]
    var limit = bytes.count
    if layout?.kind == .object, bytes.count >= 16 {
      let extent = bytes.withUnsafeBytes {
        extents.scanLimit(metadata: Self.word(bytes, 0), bytes: $0.baseAddress!, count: bytes.count)
      }
      limit = min(limit, extent ?? limit)
    }
    if layout == nil,
      let text = bytes.withUnsafeBytes({
        InstanceExtents.cStringExtent($0.baseAddress!, count: bytes.count)
          ?? InstanceExtents.countedArrayExtent($0.baseAddress!, count: bytes.count)
      })
    {
      limit = min(limit, text)
    }
    var edges: [LeakEdge] = []
    var seen = Set<EdgeKey>()
    // A Swift object's header (metadata, reference counts) is not a reference.
    var offset = layout == nil ? 0 : 16
    while offset + 8 <= limit {
      defer { offset += 8 }
      let word = Self.word(bytes, offset)
      guard word >= 0x1_0000 else { continue }
      let placed = layout?.slot(at: offset)
      let role = placed?.role ?? .conservative
      let label =
        placed.map { $0.slot.label.isEmpty ? "word \(offset / 8)" : $0.slot.label } ?? "word \(offset / 8)"
      var target = word
      var strength = ReferenceStrength.strong
      var isConservative = false
      switch role {
      case .exact(.weak):
        // The weak field holds the side table; the side table holds the object.
        if let table = Self.index(of: word, in: found.starts, exact: true) {
          target = found.orphanSideTables.contains(table) ? word : Self.word(found.contents[table], 0)
        } else {
          guard let object = reflection.memory.word(at: word) else { continue }
          target = object
        }
        strength = .weak
      case .exact(let exact): strength = exact
      case .closureContext: break
      case .conservative: isConservative = true
      case .closureFunction: continue
      }
      guard let targetIndex = Self.index(of: Self.normalised(target), in: found.starts, sizes: found.sizes),
        let to = mapping[targetIndex]
      else { continue }
      if to == from && isConservative { continue }  // a block's pointers into itself
      if case .exact = role, found.starts[targetIndex] != target { isConservative = true }
      var closure: String?
      if role == .closureContext || (isConservative && found.layouts[targetIndex]?.kind == .closureContext) {
        // A closure value: its function pointer is the word before the context.
        closure = offset >= 8 ? functionName(Self.word(bytes, offset - 8)) : nil
        if role == .closureContext, closure == nil { closure = "closure" }
      }
      guard seen.insert(EdgeKey(to: to, label: label)).inserted else { continue }
      edges.append(
        LeakEdge(
          from: from, to: to, label: label, strength: strength, isConservative: isConservative,
          closure: closure))
    }
    return edges
  }

  private struct EdgeKey: Hashable {
    var to: Int
    var label: String
  }
}
