/// The stacks that allocated a snapshot's blocks: a side table of the heap
/// model, kept by block index, filled when the program ran under an
/// allocation recorder (`leaklab leaks --stacks`).
///
/// Stacks are stored once each (many blocks share one); a stack is its
/// return addresses, innermost first (the allocation's caller first).
///
/// ```swift
/// if let stacks = model.allocationStacks, let stack = stacks.stack(of: block) {
///   print(stacks.frames(of: stack))   // [0x55d1c2a0f3b2, 0x55d1c2a0f5e8, …]
/// }
/// ```
public struct AllocationStacks: Sendable {
  /// Every distinct stack, by id.
  public private(set) var stacks: [[UInt]]
  /// Each block's stack id, or -1.
  private var stackOfBlock: [Int32]
  /// How many blocks have a stack.
  public private(set) var recordedBlocks = 0

  /// An empty table for `blockCount` blocks and the distinct `stacks`.
  public init(stacks: [[UInt]], blockCount: Int) {
    self.stacks = stacks
    stackOfBlock = Array(repeating: -1, count: blockCount)
  }

  /// Says that `stack` allocated `block`.
  public mutating func record(stack: Int, of block: Int) {
    guard stacks.indices.contains(stack), stackOfBlock.indices.contains(block) else { return }
    if stackOfBlock[block] < 0 { recordedBlocks += 1 }
    stackOfBlock[block] = Int32(stack)
  }

  /// The id of the stack that allocated `block`, when one was recorded.
  public func stack(of block: Int) -> Int? {
    guard stackOfBlock.indices.contains(block), stackOfBlock[block] >= 0 else { return nil }
    return Int(stackOfBlock[block])
  }

  /// The return addresses of stack `id`, innermost first.
  public func frames(of id: Int) -> [UInt] { stacks[id] }
}

extension AllocationStacks {
  /// The stack that allocated the most of some blocks: how many of them it
  /// allocated, and how many of them have a recorded stack at all.
  public struct Commonest: Sendable, Hashable {
    /// The stack's id.
    public var stack: Int
    /// How many of the blocks it allocated.
    public var count: Int
    /// How many of the blocks have a stack.
    public var recorded: Int
  }

  /// The stack that allocated the most of `blocks` (the lowest id on a
  /// tie); nil when none of them has a stack.
  public func commonest(of blocks: some Sequence<Int>) -> Commonest? {
    var counts: [Int32: Int] = [:]
    var recorded = 0
    for block in blocks where stackOfBlock.indices.contains(block) && stackOfBlock[block] >= 0 {
      counts[stackOfBlock[block], default: 0] += 1
      recorded += 1
    }
    guard let top = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
    return Commonest(stack: Int(top.key), count: top.value, recorded: recorded)
  }
}

extension HeapModel {
  /// Gives the model the stacks that allocated its blocks (once, before it is shared).
  public func attach(_ stacks: AllocationStacks) {
    allocationStacks = stacks
  }

  /// The stack that allocated the most of the blocks at `addresses` (a
  /// census entry's instances), from ``allocationStacks``.
  public func commonestAllocationStack(of addresses: some Sequence<UInt>) -> AllocationStacks.Commonest? {
    allocationStacks?.commonest(of: addresses.lazy.compactMap { self.block(containing: $0) })
  }
}
