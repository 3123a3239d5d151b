/// A word that points into a block.
public struct Referrer: Sendable, Hashable {
  /// Where the word is.
  public var wordAddress: UInt
  /// The live block that holds the word, or nil for a root.
  public var block: Int?
  /// The root that holds the word, or nil for a block.
  public var root: RootKind?
}

extension ProcessSnapshot {
  /// Every word that points into block `index`: one pass over every root
  /// and over the heaps, comparing each word with the block's range.
  ///
  /// No index is built and nothing is kept but the hits, so this is the
  /// cheapest answer to "who points at this block?" when it is asked once;
  /// ``PointerGraph`` answers it for every block after one scan.
  ///
  /// ```swift
  /// for referrer in snapshot.referrers(of: block) {
  ///   print(referrer.block.map { snapshot.heap[$0].description } ?? "\(referrer.root!)")
  /// }
  /// ```
  public func referrers(of index: Int) -> [Referrer] {
    let target = heap[index].range
    let reader = WindowedReader(memory: memory, capacity: WordScanner.windowSize)
    var found: [Referrer] = []
    func scan(_ range: Range<UInt>, _ hit: (UInt) -> Void) {
      var address = (range.lowerBound + 7) & ~7
      while address + 8 <= range.upperBound {
        let copied = reader.load(address, limit: range.upperBound)
        guard copied >= 8, let bytes = reader.bytes.baseAddress else {
          address = (address + 4096) & ~4095
          continue
        }
        let words = bytes.assumingMemoryBound(to: UInt.self)
        let low = target.lowerBound
        let width = UInt(target.count)
        for position in 0..<copied / 8 where words[position] &- low < width {
          hit(address + UInt(position * 8))
        }
        address += UInt(copied / 8 * 8)
      }
    }
    for root in roots.ranges {
      scan(root.range) { found.append(Referrer(wordAddress: $0, block: nil, root: root.kind)) }
    }
    for word in roots.words where target.contains(word.value) {
      found.append(Referrer(wordAddress: 0, block: nil, root: word.kind))
    }
    for range in heap.heapRanges {
      scan(range) { address in
        // Words in free chunks and malloc's headers belong to no live block.
        guard let block = heap.index(containing: address), block != index,
          !heap[block].isAllocatorInternal
        else { return }
        found.append(Referrer(wordAddress: address, block: block, root: nil))
      }
    }
    for (block, kind) in roots.blocks where block == index {
      found.append(Referrer(wordAddress: 0, block: nil, root: kind))
    }
    return found
  }
}
