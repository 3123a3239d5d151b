import CMemoryView
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
    // Then the mark itself, in C (`mv_mark`): a Swift dictionary lookup per
    // block for its side table was most of a mark of 10⁶ objects with any.
    let tables = sideTableOfObject.sorted { $0.key < $1.key }
    let objects = tables.map { UInt32($0.key) }
    let tableBlocks = tables.map { UInt32($0.value) }
    let marks = BlockKind.swiftObjectTable.withUnsafeBufferPointer { swiftKinds in
      objects.withUnsafeBufferPointer { objects in
        tableBlocks.withUnsafeBufferPointer { tableBlocks in
          var graph = MVMarkGraph(
            outStart: outStart.base, targets: outTargets.base, infos: outInfos.base, kinds: kinds.base,
            swiftKinds: swiftKinds.baseAddress, sideTableObjects: objects.baseAddress,
            sideTables: tableBlocks.baseAddress, sideTableCount: objects.count)
          return mv_mark(&graph, marked.mutableWords, stack, depth)
        }
      }
    }
    marked.noteInserted(marks)
    withExtendedLifetime(stackBuffer) {}
    return marked
  }

  /// The blocks that leaked: not reachable from any root, and not free memory.
  public func leakedBlocks(reachable: BlockSet) -> [Int] {
    reachable.missing { !kind(of: $0).isFree }
  }
}
