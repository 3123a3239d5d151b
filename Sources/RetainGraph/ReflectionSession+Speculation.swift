import CRemoteMirror

/// One read a describe made: where, and how many bytes.
struct PlannedRead: Equatable {
  var address: UInt
  var size: Int
}

/// What the last describe of the object at `object` read, in order, starting
/// with the object itself; valid only while the object's first word is still `metadata`.
struct SpeculationPlan {
  var object: UInt
  var metadata: UInt
  var reads: [PlannedRead]
}

/// Reads copied ahead by one system call for the describe in progress.
///
/// They are handed out in plan order: a read is served from entry `i` only if
/// it asks for exactly that address (and no more bytes), and only entries
/// after the last one served are considered. The first read that is not served
/// this way (a real read, or memory the library or the runtime reads itself)
/// ends the prefetch for the rest of the describe.
struct Prefetch {
  var reads: [PlannedRead] = []
  var cursor = 0
  var isActive = false
}

/// Speculative reads: one `process_vm_readv` for an object and for what its
/// last describe needed next.
///
/// Describing an object takes dependent rounds of reads: the object, then the
/// storage of its collections, then the metadata words of its targets. Each
/// round is a system call (about 1.1 µs). When the same object is described
/// again, the session issues all the reads the last describe made as one
/// multi-region system call, then runs the ordinary describe, which asks for
/// memory as usual: a request is served from the copy only when it asks for
/// exactly the address that was read ahead, in the same order. So a copy is
/// used only when the freshly read words lead to exactly that address; when
/// the object changed (a collection replaced, a field reassigned) the request
/// differs and is read for real.
///
/// Only addresses are remembered, never bytes: every byte a describe uses
/// was copied by `process_vm_readv` during that describe, and nothing is
/// dereferenced directly. A plan is keyed by the object's address and used
/// only when the object's metadata word, read in the same system call, is the
/// one recorded with it; a plan whose object died and whose address now holds
/// another object at worst costs a wasted read. Nearby regions are read as one
/// span (see `rm_readRegions`), so the bytes of one system call are copied
/// together rather than round after round: for an object that another thread
/// mutates during the describe, the result is a mix of before and after, as
/// it already was across rounds; it is never a fault. The prefetch ends at
/// the first read it does not serve, and before the library or the runtime
/// reads memory itself (projections, weak loads).
extension ReflectionSession {
  /// Slots of the plan table (direct-mapped by address).
  static let planSlots = 64
  /// Most reads per plan; most bytes per plan; largest single read planned.
  static let maximumPlannedReads = 32
  static let maximumPlannedBytes = 8192
  static let maximumPlannedRead = 4096
  /// Bytes read ahead at most, gaps between nearby regions included.
  static let prefetchArenaSize = 32768

  private static func planSlot(_ address: UInt) -> Int {
    Int(truncatingIfNeeded: (address >> 4) ^ (address >> 10)) & (planSlots - 1)
  }

  /// Starts describing the object at `address`: records its reads and, when
  /// a plan for it exists, reads ahead everything the plan lists.
  func beginDescribe(_ address: UInt) {
    describedMetadata = 0
    guard speculates else { return }
    recorded.removeAll(keepingCapacity: true)
    recordedBytes = 0
    isRecording = true
    prefetch.isActive = false
    prefetch.cursor = 0
    guard let plan = plans[Self.planSlot(address)], plan.object == address, let first = plan.reads.first,
      first == PlannedRead(address: address, size: Self.firstReadSize),
      plan.reads.count <= Self.maximumPlannedReads
    else { return }
    for (index, read) in plan.reads.enumerated() {
      prefetchRegions[index] = RMRegion(address: read.address, size: read.size, bytes: nil, copied: 0)
    }
    rm_readRegions(prefetchRegions, plan.reads.count, prefetchArena, Self.prefetchArenaSize, safeReads)
    // The object itself must have been read in full and still have the recorded metadata.
    guard prefetchRegions[0].copied == first.size, let bytes = prefetchRegions[0].bytes,
      bytes.loadUnaligned(as: UInt.self) == plan.metadata
    else { return }
    prefetch.reads = plan.reads
    prefetch.isActive = true
  }

  /// Ends the describe of the object at `address`: remembers what it read for next time.
  func endDescribe(_ address: UInt) {
    guard isRecording else { return }
    isRecording = false
    prefetch.isActive = false
    let slot = Self.planSlot(address)
    guard describedMetadata != 0, !recorded.isEmpty else {
      if plans[slot]?.object == address { plans[slot] = nil }
      return
    }
    if let plan = plans[slot], plan.object == address, plan.metadata == describedMetadata,
      plan.reads == recorded
    {
      return
    }
    plans[slot] = SpeculationPlan(object: address, metadata: describedMetadata, reads: recorded)
  }

  /// Turns speculation on or off (safe reads only), forgetting every plan.
  func setSpeculates(_ enabled: Bool) {
    speculates = enabled && safeReads
    for index in plans.indices { plans[index] = nil }
  }

  /// Notes a read of the describe in progress, while the plan has room for it.
  func record(_ address: UInt, count: Int) {
    guard recorded.count < Self.maximumPlannedReads, count <= Self.maximumPlannedRead,
      recordedBytes + ((count + 15) & ~15) <= Self.maximumPlannedBytes
    else { return }
    recorded.append(PlannedRead(address: address, size: count))
    recordedBytes += (count + 15) & ~15
  }

  /// A read during a describe: recorded, and served from the prefetch when it
  /// asks for exactly what was read ahead next.
  func trackedRead(_ address: UInt, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    record(address, count: count)
    if let bytes = prefetched(address, count: count) {
      if bytes != UnsafeRawPointer(buffer) { buffer.copyMemory(from: bytes, byteCount: count) }
      return count
    }
    return rm_read(address, buffer, count, safeReads)
  }

  /// The word at `address` from the prefetch, or nil (and the prefetch ends).
  func prefetchedWord(at address: UInt) -> UInt? {
    prefetched(address, count: 8)?.loadUnaligned(as: UInt.self)
  }

  /// Ends the prefetch: memory is about to be read some other way (by the
  /// library, or by the runtime through a weak reference).
  func endPrefetch() {
    prefetch.isActive = false
  }

  /// The `count` bytes at `address` as read ahead, when a later entry of the
  /// prefetch read exactly that address in full; otherwise nil, and the
  /// prefetch ends (what follows may depend on a real read).
  private func prefetched(_ address: UInt, count: Int) -> UnsafeRawPointer? {
    guard prefetch.isActive else { return nil }
    var index = prefetch.cursor
    while index < prefetch.reads.count {
      let read = prefetch.reads[index]
      if read.address == address, read.size >= count, prefetchRegions[index].copied >= count,
        let bytes = prefetchRegions[index].bytes
      {
        prefetch.cursor = index + 1
        return bytes
      }
      index += 1
    }
    prefetch.isActive = false
    return nil
  }
}
