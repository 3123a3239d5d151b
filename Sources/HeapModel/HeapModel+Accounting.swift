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
  /// none is: every such word is stale. A word in the Swift runtime's
  /// metadata memory is never believed (see ``markMetadataMemory()``). This is what keeps a freed object's
  /// address left in a buffer from holding a leak, or from being the path
  /// that explains one.
  func admitUncountedReferences() {
    let strong = strongCounts.base!
    let exact = exactStrongIn.base!
    var candidates: [Candidate] = []
    for object in uncountedObjects.buffer {
      let block = Int(object)
      let strongCount = strong[block]
      let room = strongCount == Self.unknownCount ? Int.max : Int(strongCount) - Int(exact[block])
      guard room > 0 else { continue }
      for candidate in admissible(into: block, room: room, excluding: nil, buffer: &candidates) {
        if candidate.isRoot {
          rootAdmitted.base![candidate.position] = 1
        } else {
          outInfos.base![candidate.position] |= Self.admittedBit
        }
      }
    }
  }

  /// A word no metadata counts that points at a Swift object's start: an
  /// edge's or a root word's position, and how likely it is to hold a count.
  struct Candidate {
    var quality: Int
    var position: Int
    var isRoot: Bool
  }

  /// The words into `block` that its count's `room` believes, the likeliest
  /// first, with the ones that tie with the last (words in `excluded`
  /// blocks left out); `buffer` is reused.
  func admissible(
    into block: Int, room: Int, excluding excluded: Set<Int>?, buffer candidates: inout [Candidate]
  ) -> [Candidate] {
    candidates.removeAll(keepingCapacity: true)
    for slot in Int(inStart.base![block])..<Int(inStart.base![block + 1]) {
      let position = Int(inEdges.base![slot])
      let info = outInfos.base![position]
      let kind = info & Self.kindMask
      guard kind == UInt32(EdgeKind.conservative.rawValue) || kind == UInt32(EdgeKind.unmanaged.rawValue),
        outTargets.base![position] & Self.interiorBit == 0
      else { continue }
      let source = Int(inSources.base![slot] & ~Self.interiorBit)
      if let excluded, excluded.contains(source) { continue }
      if metadataBlocks.contains(source) { continue }
      // A task's own frames keep its address (a continuation's context, a
      // frame of `withUnsafeCurrentTask`) without holding it: whoever
      // resumes, runs or awaits it does (measured: a suspended task's own
      // frame took its count's room from the NIO callback that resumes it,
      // and the task and 26 blocks it held read as a leaked cycle, 1 run
      // in 100 of a clean server).
      if let tasks = slabTasks[source], tasks.contains(block) { continue }
      let word = Int(info >> Self.wordShift)
      candidates.append(
        Candidate(
          quality: quality(ofReferenceIn: source, word: word, kind: kind), position: position, isRoot: false))
    }
    for position in rootPositions(of: block)
    where rootTargets.base![position] & Self.interiorBit == 0 && !metadataRootPositions.contains(position) {
      candidates.append(
        Candidate(
          quality: Self.quality(of: rootKinds[Int(rootOrigins.base![position])]), position: position,
          isRoot: true))
    }
    guard candidates.count > room else { return candidates }
    candidates.sort { $0.quality < $1.quality }
    let bar = candidates[room - 1].quality
    return candidates.filter { $0.quality <= bar }
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

/// Where a Swift object's strong references are, as its strong count and
/// the model account for them: "3 of 3 strong references found", or "2 of
/// 3 strong references found: one is held from memory no metadata
/// describes".
public struct StrongReferences: Sendable, Hashable, CustomStringConvertible {
  /// The object's strong count, read from its header.
  public var count: Int
  /// How many metadata describes: fields, captures and elements of live blocks.
  public var described: Int
  /// How many are words no metadata describes that the count leaves room
  /// for, in the heap, a global or memory a runtime mapped (C memory, a
  /// CoreFoundation object's, a Block's captures), the likeliest first.
  public var inOtherMemory: Int
  /// How many are held by threads: words of their stacks (the caller's
  /// own variables among them), or registers no memory shows.
  public var byThreads: Int { max(0, count - described - inOtherMemory) }

  /// The account of the references held in memory, threads' stacks and
  /// registers left out (how many a running thread holds changes from one
  /// instant to the next, and a call's own depend on the build): "2 of 2
  /// strong references found", "1 of 2 strong references found: one is
  /// held from memory no metadata describes".
  public var description: String {
    let inMemory = described + inOtherMemory
    var text = "\(described) of \(inMemory) strong reference\(inMemory == 1 ? "" : "s") found"
    if inOtherMemory > 0 { text += ": \(Self.amount(inOtherMemory)) held from memory no metadata describes" }
    return text
  }

  /// "one is", "two are", "12 are".
  static func amount(_ count: Int) -> String {
    let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    let number = count <= words.count ? words[count - 1] : "\(count)"
    return number + (count == 1 ? " is" : " are")
  }
}

extension HeapModel {
  /// Where the strong references of Swift object `block` are: how many its
  /// strong count says exist, how many metadata describes, and which words
  /// in memory hold the rest (the others are threads') (see ``admitUncountedReferences()``), words in
  /// `excluded` blocks left out (a tool's own memory, which holds nothing
  /// of the program's). Nil for a block that is not a counted Swift object
  /// (immortal, or its counts unreadable).
  public func strongReferences(of block: Int, excluding excluded: Set<Int> = []) -> StrongReferences? {
    guard let count = strongCount(of: block) else { return nil }
    let described = min(count, exactStrongReferences(to: block))
    let room = count - described
    var inOtherMemory = 0
    if room > 0 {
      var buffer: [Candidate] = []
      let stacks = Self.quality(of: .stack(thread: 0, name: ""))
      inOtherMemory = admissible(into: block, room: room, excluding: excluded, buffer: &buffer).count {
        $0.quality < stacks
      }
    }
    // Words that tie with the last one the count leaves room for are all
    // believed; the account never says more than the count.
    return StrongReferences(count: count, described: described, inOtherMemory: min(inOtherMemory, room))
  }
}
