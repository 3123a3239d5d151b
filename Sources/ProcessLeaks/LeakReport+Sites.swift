extension LeakReport {
  /// The line under a leaked object in the text report when its site is
  /// known (`--stacks`): `allocated in Session.init() at …:42, called from …`.
  /// Only objects, closure contexts and tasks get one; C blocks are named by
  /// their allocating function in the groups (``groupName(of:)``).
  static func siteLines(of block: LeakedBlock, indent: String) -> [String] {
    guard let site = block.allocation, [.object, .closureContext, .task].contains(block.kind) else {
      return []
    }
    return [indent + site.summary]
  }

  /// The name a leaked block is grouped under: its type, and for a plain
  /// malloc block (no metadata, no known C type) whose allocating function
  /// is known, that function
  /// (`malloc block (from _dispatch_continuation_alloc_from_heap)`).
  static func groupName(of block: LeakedBlock) -> String {
    guard block.kind == .mallocBlock, block.typeName == "malloc block",
      let function = block.allocation?.allocatingFunction
    else {
      return block.typeName
    }
    return "\(block.typeName) (from \(function))"
  }
}
