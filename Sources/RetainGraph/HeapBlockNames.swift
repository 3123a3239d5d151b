import MemoryView

/// Names memory blocks that are not Swift objects.
enum HeapBlockNames {
  /// `malloc block, 96 B`, with what its first word points at when that is
  /// a symbol of an image (a CoreFoundation class, a Dispatch vtable, a
  /// Block's descriptor): `malloc block, 96 B (__CFRunLoopTimerClass)`.
  static func info(for block: MallocBlock, in snapshot: ProcessSnapshot) -> ObjectInfo {
    var name = "malloc block, \(block.size) B"
    if let first = snapshot.memory.word(at: block.address),
      let image = snapshot.images.image(containing: first),
      let symbol = image.symbol(containing: first)
    {
      name += " (\(TypeNames.unqualified(symbol.demangled)))"
    }
    return ObjectInfo(address: block.address, typeName: "malloc block", name: name, kind: .mallocBlock)
  }
}
