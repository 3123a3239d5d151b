import MemoryView

extension HeapModel {
  /// Marks every block whose memory the program can still reach from its
  /// roots: what a leak check asks. Every kind of root counts (globals,
  /// thread-local storage, stacks, registers, other writable memory, as
  /// memcheck takes them), unless `acceptsRoot` says otherwise; references
  /// are followed as ``holdsMemory(_:)-(Edge)`` allows, and an object holds
  /// its weak reference side table.
  ///
  /// A Swift object whose deinit runs (its counts say so: strong count 0)
  /// is marked too, with what it holds: the thread running the deinit
  /// holds it and frees what it holds, even when that thread is gone (a
  /// program read at its exit, whose exit ended another thread mid-deinit:
  /// the object and what it still held were reported leaked, every run of
  /// `RuntimeHeld dying`).
  ///
  /// A block not marked (and not free memory) leaked.
  public func reachableFromRoots(acceptsRoot: (RootKind) -> Bool = { _ in true }) -> BlockSet {
    let count = blockCount
    let marked = BlockSet(count: count)
    // Every block is pushed at most once: a stack as deep as the heap is
    // reserved (pages are touched only as deep as it grows) and used through
    // a plain pointer (a generic buffer's calls were a fifth of the mark).
    let stackBuffer = ScratchBuffer<UInt32>(capacity: count + 1)
    let stack = stackBuffer.base!
    var depth = 0
    func push(_ block: Int) {
      if marked.insert(block) {
        stack[depth] = UInt32(block)
        depth += 1
      }
    }
    let accepted = rootKinds.map(acceptsRoot)
    forEachRootEdge { target, _, origin, holds in
      if accepted[origin], holds { push(target) }
    }
    for (block, origin) in rootBlocks where accepted[origin] { push(block) }
    for object in releasedObjects.buffer { push(Int(object)) }
    let kinds = self.kinds.base!
    let starts = outStart.base!
    let targets = outTargets.base
    let infos = outInfos.base
    let sideTables = sideTableOfObject
    while depth > 0 {
      depth -= 1
      let block = Int(stack[depth])
      if !sideTables.isEmpty, let table = sideTables[block] { push(table) }
      for position in Int(starts[block])..<Int(starts[block + 1]) {
        let target = targets![position]
        let index = Int(target & ~Self.interiorBit)
        let info = infos![position]
        switch info & Self.kindMask {
        case UInt32(EdgeKind.back.rawValue):
          continue
        case UInt32(EdgeKind.conservative.rawValue), UInt32(EdgeKind.unmanaged.rawValue):
          // Into a Swift object, only a reference its strong count leaves room for.
          guard info & Self.admittedBit != 0 || BlockKind(rawValue: kinds[index])?.isSwiftObject != true
          else {
            continue
          }
        default:
          break
        }
        push(index)
      }
    }
    withExtendedLifetime(stackBuffer) {}
    return marked
  }

  /// The blocks that leaked: not reachable from any root, and not free memory.
  public func leakedBlocks(reachable: BlockSet) -> [Int] {
    reachable.missing { !kind(of: $0).isFree }
  }
}
