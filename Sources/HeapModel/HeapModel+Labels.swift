import MemoryView

extension HeapModel {
  /// How a reference is shown: the field, capture or element that holds it.
  public struct EdgeLabel: Sendable, Hashable {
    /// `service`, `captures[1]`, `[3]`, `values[0].handler`, or `word 5`
    /// where no metadata names the word.
    public var text: String
    /// When the reference is a closure's context held by a closure value:
    /// the closure's name (`closure in LoadFeedUseCase.start()`).
    public var closure: String?

    public init(text: String, closure: String?) {
      self.text = text
      self.closure = closure
    }
  }

  /// The labels of the edges out of `block`, by edge position: one read of
  /// the block, one walk of its layout.
  public func labels(ofEdgesFrom block: Int) -> [Int: EdgeLabel] {
    let edges = edges(from: block)
    guard !edges.isEmpty else { return [:] }
    var labels: [Int: EdgeLabel] = [:]
    var wanted: [Int: [Int]] = [:]  // byte offset → edge positions
    for edge in edges { wanted[edge.word * 8, default: []].append(edge.position) }
    if kind(of: block).isSwiftObject, let found = slotLabels(of: block, at: Set(wanted.keys)) {
      for (offset, label) in found {
        for position in wanted[offset] ?? [] { labels[position] = label }
      }
    }
    for edge in edges where labels[edge.position] == nil {
      labels[edge.position] = EdgeLabel(
        text: "word \(edge.word)", closure: closureName(wordBefore: edge, in: block))
    }
    return labels
  }

  /// The label of one edge.
  public func label(of edge: Edge) -> EdgeLabel {
    labels(ofEdgesFrom: edge.source)[edge.position]
      ?? EdgeLabel(text: "word \(edge.word)", closure: nil)
  }

  /// The labels of the slots of Swift object `block` at byte `offsets`.
  private func slotLabels(of block: Int, at offsets: Set<Int>) -> [Int: EdgeLabel]? {
    let heapBlock = snapshot.heap[block]
    let size = Int(min(heapBlock.size, 64 << 20))
    let bytes = snapshot.memory.bytes(at: heapBlock.address, count: size)
    guard bytes.count >= 16 else { return nil }
    let metadata = bytes.withUnsafeBytes { $0.load(as: UInt.self) }
    let id = typeID(of: block)
    guard
      let layout = layoutPerInstance[id]
        ? types.layout(metadata: metadata, instance: heapBlock.address) : typeLayouts[id]
    else { return nil }
    return bytes.withUnsafeBytes { raw -> [Int: EdgeLabel] in
      let walk = ObjectWalk(
        types: types, address: heapBlock.address, bytes: raw.baseAddress!, size: raw.count, layout: layout)
      var finder = LabelFinder(wanted: offsets, kind: layout.kind, bytes: raw.baseAddress!, size: raw.count)
      walk.walk(&finder)
      return finder.found.mapValues { found in
        EdgeLabel(
          text: found.text, closure: found.function.map { ClosureNames.name(of: $0, in: snapshot.images) })
      }
    }
  }

  /// A conservative word that holds a closure context may be half of a
  /// closure value whose function pointer is the word before it.
  private func closureName(wordBefore edge: Edge, in block: Int) -> String? {
    guard edge.word > 0, kind(of: edge.target) == .closureContext,
      let function = snapshot.memory.word(at: snapshot.heap[block].address + UInt(edge.word - 1) * 8),
      let image = snapshot.images.image(containing: function),
      image.symbol(containing: function, kinds: .function) != nil
    else { return nil }
    return ClosureNames.name(of: function, in: snapshot.images)
  }

  /// Finds the slots a walk meets at some offsets.
  private struct LabelFinder: ReferenceVisitor {
    let wanted: Set<Int>
    let kind: BlockKind
    let bytes: UnsafeRawPointer
    let size: Int
    var found: [Int: (text: String, function: UInt?)] = [:]

    mutating func reference(
      _ word: UInt, at offset: Int, kind edgeKind: EdgeKind, slot: Slot, context: SlotContext
    ) {
      guard wanted.contains(offset) else { return }
      var function: UInt?
      if case .function = slot, offset >= 8 {
        function = bytes.load(fromByteOffset: offset - 8, as: UInt.self)
      }
      let label = context.label(of: slot, kind: kind)
      found[offset] = (label.isEmpty ? "word \(offset / 8)" : label, function)
    }

    mutating func opaque(from: Int, to: Int, context: SlotContext) {}
  }
}
