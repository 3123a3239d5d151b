import HeapModel
import RetainGraph

/// A heap block nothing reachable points to, named as far as its memory tells.
///
/// ```swift
/// for block in graph.blocks where block.kind == .object {
///   print(block)   // <FeedService 0x5581e2a0 48 B>
/// }
/// ```
public struct LeakedBlock: Sendable, Hashable, CustomStringConvertible {
  /// What kind of block it is.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// An instance of a Swift class.
    case object
    /// The context of a Swift closure (its captures).
    case closureContext
    /// A Swift box (a captured `var`, an indirect payload, an error).
    case box
    /// The storage of a Swift `Array`, `Dictionary` or `Set`.
    case collectionStorage
    /// A Swift async task.
    case task
    /// A malloc block with no Swift metadata (C, C++, a CF object, a buffer).
    case mallocBlock
  }

  /// The block's address (the address malloc returned).
  public var address: UInt
  /// Its size in bytes (malloc's usable size), with its weak-reference side
  /// table's when it has one.
  public var size: Int
  /// What it is.
  public var kind: Kind
  /// The name a developer writes (`FeedService`, `closure context`, `malloc block`).
  public var typeName: String
  /// The module-qualified type name (`Feed.FeedService`), when known.
  public var qualifiedTypeName: String?
  /// Whether the type is defined in the program itself (its metadata lies in
  /// the executable), not in a library.
  public var isProgramType = false
  /// Malloc blocks counted in this one: its weak-reference side table.
  public var foldedBlocks = 0
  /// Where it was allocated, when the program ran under the allocation recorder (`--stacks`).
  public var allocation: AllocationSite?

  /// Creates the description of a leaked block.
  public init(address: UInt, size: Int, kind: Kind, typeName: String, qualifiedTypeName: String? = nil) {
    self.address = address
    self.size = size
    self.kind = kind
    self.typeName = typeName
    self.qualifiedTypeName = qualifiedTypeName
  }

  /// `<FeedService 0x5581e2a0 48 B>`.
  public var description: String { "<\(typeName) 0x\(String(address, radix: 16)) \(size) B>" }
}

/// A reference from one leaked block to another.
public struct LeakEdge: Sendable, Hashable {
  /// Index of the block holding the reference.
  public var from: Int
  /// Index of the block referred to.
  public var to: Int
  /// Where the reference is stored: `delegate`, `captures[1]`, `items[3]`,
  /// or `word 5` when no field covers it.
  public var label: String
  /// How it holds its target (a conservative find counts as strong).
  public var strength: ReferenceStrength
  /// Whether the edge is a word that only looks like a pointer, rather than a
  /// reference the type metadata describes.
  public var isConservative: Bool
  /// When the reference is a closure: its name (`closure in Feed.load()`).
  public var closure: String?
  /// Whether the edge keeps its target alive: a strong reference, or a
  /// pointer no metadata counts (an `Unmanaged` field, a conservative word)
  /// that holds a C object or that its Swift target's strong count leaves
  /// room for.
  public var keepsAlive: Bool { holds ?? strength.keepsTargetAlive }
  /// What the heap model said of the edge, when it did.
  private var holds: Bool?

  /// Creates an edge; by default it keeps its target alive when its strength does.
  public init(
    from: Int, to: Int, label: String, strength: ReferenceStrength, isConservative: Bool = false,
    closure: String? = nil, keepsAlive: Bool? = nil
  ) {
    self.from = from
    self.to = to
    self.label = label
    self.strength = strength
    self.isConservative = isConservative
    self.closure = closure
    holds = keepsAlive
  }
}

/// The leaked blocks of a process and the references among them.
public struct LeakGraph: Sendable, Hashable {
  /// Every leaked block, in address order.
  public var blocks: [LeakedBlock]
  /// Every reference from a leaked block to another.
  public var edges: [LeakEdge]

  /// Creates a graph.
  public init(blocks: [LeakedBlock], edges: [LeakEdge]) {
    self.blocks = blocks
    self.edges = edges
  }

  /// Who keeps whom alive: each block's targets by the references that keep
  /// their targets alive, and each block's strongly connected component by
  /// those references. A retain cycle is a component of two or more blocks,
  /// or of one that keeps itself.
  struct KeepAlive: Sendable, Hashable {
    var successors: [[Int]]
    var component: [Int]
    var componentCount: Int
    var keepsItself: Set<Int>
  }

  /// The references that keep blocks alive, and the components they make.
  func keepAlive() -> KeepAlive {
    var successors = [[Int]](repeating: [], count: blocks.count)
    var keepsItself = Set<Int>()
    for edge in edges where edge.keepsAlive {
      successors[edge.from].append(edge.to)
      if edge.from == edge.to { keepsItself.insert(edge.from) }
    }
    let components = StrongComponents(nodeCount: blocks.count, successors: successors)
    return KeepAlive(
      successors: successors, component: components.component, componentCount: components.count,
      keepsItself: keepsItself)
  }

  /// The outgoing edges of each block, in label order of discovery.
  func outgoing() -> [[LeakEdge]] {
    var result = [[LeakEdge]](repeating: [], count: blocks.count)
    for edge in edges { result[edge.from].append(edge) }
    return result
  }
}
