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

extension HeapModel {
  /// Gives the model the stacks that allocated its blocks (once, before it is shared).
  public func attach(_ stacks: AllocationStacks) {
    allocationStacks = stacks
  }
}
