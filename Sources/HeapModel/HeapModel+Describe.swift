import CMemoryView
import MemoryView

extension HeapModel {
  /// `<FeedService 0x5581e2a0 48 B>`: a block as a leak report shows it.
  public func describe(_ block: Int) -> String {
    let heapBlock = snapshot.heap[block]
    return "<\(type(of: block).name) 0x\(String(heapBlock.address, radix: 16)) \(heapBlock.size) B>"
  }

  /// A root as a person reads it: `global Feed.cache in Feed`, `stack of thread 4242 (worker)`.
  public func describe(_ root: RootEdge) -> String { RootNames.name(of: root, in: snapshot) }

  /// The cheapest path from any root to `block`, one step a line: the root
  /// (`root: global cache in Feed`), then each block with the reference that
  /// reaches it (`items: <Array storage 0x… 64 B>`, `[3]: <Record 0x… 32 B>`).
  public func describePath(to block: Int) -> [String] {
    guard let path = pathToRoot(from: block, accepts: { _ in true }).path else {
      return ["root: not found"]
    }
    var steps = ["root: \(describe(path.root))", describe(path.blocks[0])]
    for (edge, next) in zip(path.edges, path.blocks.dropFirst()) {
      steps.append("\(label(of: edge).text): \(describe(next))")
    }
    return steps
  }
}

extension HeapModel {
  /// The name a block is shown by: its type's, or for a CoreFoundation
  /// object behind Foundation's bridge class (`__NSCFType`) its
  /// CoreFoundation type (`CFRunLoopTimer`).
  public func displayName(of block: Int) -> String {
    let type = type(of: block)
    guard type.name == "__NSCFType",
      let info = snapshot.memory.word(at: snapshot.heap[block].address + 16)
    else { return type.name }
    var buffer = [CChar](repeating: 0, count: 96)
    let length = mv_coreFoundationTypeName((info >> 8) & 0x3FF, &buffer, buffer.count)
    guard length > 0 else { return type.name }
    return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
