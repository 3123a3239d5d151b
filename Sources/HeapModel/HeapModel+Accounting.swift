import MemoryView

extension HeapModel {
  /// Decides, for every Swift object, which references no metadata counts
  /// can hold it: its strong count says how many strong references exist;
  /// the exact ones (fields, captures, elements) account for some; the
  /// `k` left are held by words no metadata describes — so exactly `k` of
  /// those words are believed, the likeliest first:
  ///
  /// 1. a word of a global or of thread-local storage (a static `let`
  ///    holds what it points at; measured: a pooled buffer's stale word
  ///    beside NIO's static zero-capacity `ByteBuffer`);
  /// 2. an `Unmanaged` or unsafe pointer field of a Swift object;
  /// 3. a word in a Swift object's part its metadata cannot lay out (a
  ///    `Mutex`'s contents, a CoreFoundation object's memory), in an object
  ///    of a C runtime (a vtable or isa first: Dispatch, Blocks), or in a
  ///    task's frames;
  /// 4. a word in memory a runtime mapped for itself;
  /// 5. a word in a plain C buffer, the larger ones (over 1 KiB) after;
  /// 6. a word in a thread's stack or registers (borrowed copies and dead
  ///    slots are common there), the caller's own variables last.
  ///
  /// Words that tie with the `k`-th are believed too (no better reason to
  /// leave one out); a word into an object's middle never is. With `k` = 0
  /// none is: every such word is stale. This is what keeps a freed object's
  /// address left in a buffer from holding a leak, or from being the path
  /// that explains one.
  func admitUncountedReferences() {
    let count = blockCount
    let strong = strongCounts.base!
    let exact = exactStrongIn.base!
    let kinds = self.kinds.base!
    let inStarts = inStart.base!
    var candidates: [(quality: Int, edge: Int, isRoot: Bool)] = []
    for block in 0..<count {
      let strongCount = strong[block]
      guard BlockKind(rawValue: kinds[block])?.isSwiftObject == true else { continue }
      let room = strongCount == Self.unknownCount ? Int.max : Int(strongCount) - Int(exact[block])
      guard room > 0 else { continue }
      candidates.removeAll(keepingCapacity: true)
      for slot in Int(inStarts[block])..<Int(inStarts[block + 1]) {
        let position = Int(inEdges.base![slot])
        let info = outInfos.base![position]
        let kind = info & Self.kindMask
        guard kind == UInt32(EdgeKind.conservative.rawValue) || kind == UInt32(EdgeKind.unmanaged.rawValue),
          outTargets.base![position] & Self.interiorBit == 0
        else { continue }
        let source = Int(inSources.base![slot] & ~Self.interiorBit)
        let word = Int(info >> Self.wordShift)
        candidates.append((quality(ofReferenceIn: source, word: word, kind: kind), position, false))
      }
      for position in rootPositions(of: block) where rootTargets.base![position] & Self.interiorBit == 0 {
        candidates.append((Self.quality(of: rootKinds[Int(rootOrigins.base![position])]), position, true))
      }
      guard !candidates.isEmpty else { continue }
      var admitted = candidates
      if candidates.count > room {
        candidates.sort { $0.quality < $1.quality }
        let bar = candidates[room - 1].quality
        admitted = candidates.filter { $0.quality <= bar }
      }
      for candidate in admitted {
        if candidate.isRoot {
          rootAdmitted.base![candidate.edge] = 1
        } else {
          outInfos.base![candidate.edge] |= Self.admittedBit
        }
      }
    }
  }

  /// How likely word `word` of `source`, of `kind`, is to be a reference a
  /// count holds (lower: likelier). A word past a Swift object's own fields
  /// (a CoreFoundation object's memory behind Foundation's class, a
  /// `ManagedBuffer`'s tail) is C memory: CoreFoundation keeps unretained
  /// back pointers there (a timer's run loop).
  private func quality(ofReferenceIn source: Int, word: Int, kind: UInt32) -> Int {
    if let root = rootBlocks[source], case .callerStack = rootKinds[root] { return 8 }
    let sourceKind = self.kind(of: source)
    if sourceKind.isSwiftObject {
      if kind == UInt32(EdgeKind.unmanaged.rawValue) { return 2 }
      let fieldsEnd = typeLayouts[typeID(of: source)]?.size ?? 0
      return word * 8 < fieldsEnd ? 3 : 5
    }
    switch sourceKind {
    case .cObject, .block, .taskFrames, .task: return 3
    default: return snapshot.heap[source].size > 1024 ? 6 : 5
    }
  }

  /// How likely a root word of `kind` is to be a reference a count holds:
  /// a global or thread-local storage first; a thread's stack or registers
  /// after a C buffer (they are full of borrowed copies and dead slots); the
  /// caller's own variables last.
  static func quality(of kind: RootKind) -> Int {
    switch kind {
    case .global, .threadLocal, .registered: 1
    case .mapping: 4
    case .stack, .register, .unboundedStack: 7
    case .callerStack: 8
    }
  }

  /// The positions of the root words that point into `block`.
  func rootPositions(of block: Int) -> Range<Int> {
    let count = rootTargets.count
    guard count > 0, let targets = rootTargets.base else { return 0..<0 }
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if Int(targets[middle] & ~Self.interiorBit) < block { low = middle + 1 } else { high = middle }
    }
    var end = low
    while end < count, Int(targets[end] & ~Self.interiorBit) == block { end += 1 }
    return low..<end
  }
}
