extension HeapModel {
  /// The live blocks of the model counted by type (see ``HeapCensus``): one
  /// pass over the blocks, in address order, so each type's addresses come
  /// out sorted and are packed as they come.
  ///
  /// ```swift
  /// let census = model.census()
  /// census.count(ofType: "AuditTrail.AuditRecord")  // 250
  /// ```
  public func census() -> HeapCensus {
    let count = blockCount
    let heap = snapshot.heap
    let starts = heap.startPointer
    let sizes = heap.sizePointer
    let kindTable = kinds.base!
    let typeTable = typeIDs.base!
    var groups: [CensusGroup] = []
    var groupByKey: [String: Int] = [:]
    var groupOfType = [Int](repeating: -1, count: heapTypes.count)
    var groupOfSizeClass = [Int](repeating: -1, count: 64)
    var groupOfKind = [Int](repeating: -1, count: 256)
    var repack: Set<Int> = []
    var totalBytes = 0
    func group(for entry: HeapCensus.Entry) -> Int {
      if let known = groupByKey[entry.key] { return known }
      groups.append(CensusGroup(entry: entry))
      groupByKey[entry.key] = groups.count - 1
      return groups.count - 1
    }
    for block in 0..<count {
      let typeID = Int(typeTable[block])
      let rawKind = kindTable[block]
      let size = Int(sizes[block])
      let index: Int
      if typeID != 0 {
        if groupOfType[typeID] < 0 {
          groupOfType[typeID] = group(for: Self.censusEntry(of: heapTypes[typeID]))
        }
        index = groupOfType[typeID]
      } else if rawKind == BlockKind.mallocBlock.rawValue {
        let sizeClass = Self.sizeClass(of: size)
        if groupOfSizeClass[sizeClass] < 0 {
          groupOfSizeClass[sizeClass] = group(for: Self.mallocBlockEntry(sizeClass: sizeClass))
        }
        index = groupOfSizeClass[sizeClass]
      } else {
        if groupOfKind[Int(rawKind)] < 0 {
          groupOfKind[Int(rawKind)] = group(for: Self.kindEntry(BlockKind(rawValue: rawKind) ?? .mallocBlock))
        }
        index = groupOfKind[Int(rawKind)]
      }
      totalBytes += size
      groups[index].entry.count += 1
      groups[index].entry.bytes += size
      if !groups[index].entry.instances.append(starts[block]) { repack.insert(index) }
    }
    if !repack.isEmpty {
      // An address off malloc's alignment: those types' addresses packed again, unit 1.
      var unaligned = [[UInt]](repeating: [], count: groups.count)
      for block in 0..<count {
        let index = censusGroup(of: block, groupOfType, groupOfSizeClass, groupOfKind)
        if repack.contains(index) { unaligned[index].append(starts[block]) }
      }
      for index in repack { groups[index].entry.instances = InstanceAddresses(sorted: unaligned[index]) }
    }
    let entries = groups.map(\.entry)
    return HeapCensus(
      entries: HeapCensus(entries: entries, blocks: count, bytes: totalBytes).sorted(by: .bytes),
      blocks: count,
      bytes: totalBytes)
  }

  private func censusGroup(of block: Int, _ byType: [Int], _ bySizeClass: [Int], _ byKind: [Int]) -> Int {
    let typeID = typeID(of: block)
    if typeID != 0 { return byType[typeID] }
    let rawKind = kinds.base![block]
    if rawKind == BlockKind.mallocBlock.rawValue {
      return bySizeClass[Self.sizeClass(of: Int(snapshot.heap.sizePointer[block]))]
    }
    return byKind[Int(rawKind)]
  }

  private struct CensusGroup {
    var entry: HeapCensus.Entry
    init(entry: HeapCensus.Entry) {
      self.entry = entry
      self.entry.instances = InstanceAddresses(unit: 16)
    }
  }

  /// The census entry of a type the model named.
  static func censusEntry(of type: HeapType) -> HeapCensus.Entry {
    HeapCensus.Entry(
      key: "\(type.kind) \(type.qualifiedName ?? type.censusName)", name: type.censusName,
      qualifiedName: type.qualifiedName, kind: type.kind, module: type.module, image: type.image,
      isProgramType: type.isProgramType, count: 0, bytes: 0)
  }

  /// Plain malloc memory of one size class: `malloc block 33–64 B`.
  static func mallocBlockEntry(sizeClass: Int) -> HeapCensus.Entry {
    let name = "malloc block \(sizeClassName(sizeClass))"
    return HeapCensus.Entry(key: "mallocBlock \(name)", name: name, kind: .mallocBlock, count: 0, bytes: 0)
  }

  /// Blocks known by their kind alone: stdio's buffers, free memory malloc counts as live.
  static func kindEntry(_ kind: BlockKind) -> HeapCensus.Entry {
    let name =
      switch kind {
      case .bytes: "stdio buffer"
      case .cached: "dispatch continuation, cached for reuse (free)"
      case .allocator: "malloc's own (tcache)"
      case .sideTable: "weak reference side table"
      default: "\(kind)"
      }
    return HeapCensus.Entry(key: "\(kind) \(name)", name: name, kind: kind, count: 0, bytes: 0)
  }

  /// The power-of-two size class of `size` bytes: 5 for 1–32 B, 6 for 33–64 B.
  static func sizeClass(of size: Int) -> Int {
    size <= 32 ? 5 : min(63, (Int.bitWidth - (size - 1).leadingZeroBitCount))
  }

  /// `1–32 B`, `33–64 B`, `513 B–1 KiB`, `1–2 KiB`, `512 KiB–1 MiB`.
  static func sizeClassName(_ sizeClass: Int) -> String {
    let upper = 1 << sizeClass
    if upper <= 1024 {
      return upper == 1024 ? "513 B–1 KiB" : "\(sizeClass == 5 ? 1 : upper / 2 + 1)–\(upper) B"
    }
    func scaled(_ bytes: Int) -> (Int, String) {
      for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= 1 << shift {
        return (bytes >> shift, unit)
      }
      return (bytes, "B")
    }
    let (low, lowUnit) = scaled(upper / 2)
    let (high, highUnit) = scaled(upper)
    return lowUnit == highUnit ? "\(low)–\(high) \(highUnit)" : "\(low) \(lowUnit)–\(high) \(highUnit)"
  }
}
