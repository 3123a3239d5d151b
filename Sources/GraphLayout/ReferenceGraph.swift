/// A small graph of objects and the references between them: what keeps a
/// leaked object alive, ready to be drawn (``draw(fitting:orientation:)``)
/// or written as DOT, Mermaid or JSON.
///
/// The model knows nothing of how the graph was found: RetainGraph's
/// explanations, a whole-process heap walk or a hand-written test graph all
/// become the same nodes and edges. Node ids are stable (made from what a
/// node is called, never from addresses), so the same leak gives the same
/// DOT, Mermaid and JSON on every run.
///
/// ```swift
/// var graph = ReferenceGraph()
/// graph.addNode(.init(id: "AlertController_1", title: "AlertController#1", isLeaked: true))
/// graph.addNode(.init(id: "AlertAction_1", title: "AlertAction#1"))
/// graph.addNode(
///   .init(
///     id: "closure_1", title: "closure", kind: .closure,
///     details: ["in DraftsScreen.confirmDelete()"]))
/// graph.addEdge(.init(from: "AlertController_1", to: "AlertAction_1", label: "actions[1]"))
/// graph.addEdge(.init(from: "AlertAction_1", to: "closure_1", label: "handler"))
/// graph.addEdge(.init(from: "closure_1", to: "AlertController_1", label: "captures[1]", isCulprit: true))
/// print(graph.draw(fitting: Size(width: 80, height: 24)))
/// print(graph.dot())
/// ```
public struct ReferenceGraph: Hashable, Sendable {
  /// The nodes, in the order they were added: the drawing starts from the
  /// first root (else the first node) and follows edges in their order.
  public private(set) var nodes: [Node]
  /// The references, in the order they were added.
  public private(set) var edges: [Edge]

  /// Creates a graph; edges whose ends are not among `nodes` are dropped.
  public init(nodes: [Node] = [], edges: [Edge] = []) {
    self.nodes = []
    self.edges = []
    for node in nodes { addNode(node) }
    for edge in edges { addEdge(edge) }
  }

  /// Adds `node`, or merges it into the node with the same id (flags are
  /// combined, details kept from the first unless it had none).
  public mutating func addNode(_ node: Node) {
    guard let index = nodes.firstIndex(where: { $0.id == node.id }) else {
      nodes.append(node)
      return
    }
    nodes[index].isRoot = nodes[index].isRoot || node.isRoot
    nodes[index].isLeaked = nodes[index].isLeaked || node.isLeaked
    if nodes[index].details.isEmpty { nodes[index].details = node.details }
  }

  /// Adds `edge` if both its ends are nodes of the graph and the same
  /// reference (ends and label) is not there yet; a repeated edge only adds
  /// its culprit mark.
  public mutating func addEdge(_ edge: Edge) {
    guard node(edge.from) != nil, node(edge.to) != nil else { return }
    if let index = edges.firstIndex(where: {
      $0.from == edge.from && $0.to == edge.to && $0.label == edge.label
    }) {
      edges[index].isCulprit = edges[index].isCulprit || edge.isCulprit
      return
    }
    edges.append(edge)
  }

  /// Marks the edge at `index` as the culprit (or not).
  public mutating func setCulprit(_ isCulprit: Bool, edgeAt index: Int) {
    edges[index].isCulprit = isCulprit
  }

  /// The node with `id`, if any.
  public func node(_ id: String) -> Node? {
    nodes.first { $0.id == id }
  }

  /// Whether the graph has no nodes.
  public var isEmpty: Bool { nodes.isEmpty }

  /// A node id made of `name`: letters, digits and `_` only, starting with a
  /// letter, so DOT, Mermaid and JSON can all use it unquoted
  /// (`AlertController#1` → `AlertController_1`).
  public static func identifier(for name: String) -> String {
    var id = ""
    var lastWasSeparator = false
    for scalar in name.unicodeScalars {
      if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        id.unicodeScalars.append(scalar)
        lastWasSeparator = false
      } else if !lastWasSeparator, !id.isEmpty {
        id.append("_")
        lastWasSeparator = true
      }
    }
    while id.hasSuffix("_") { id.removeLast() }
    if id.isEmpty || !(id.unicodeScalars.first!.properties.isAlphabetic) { id = "n_" + id }
    return id
  }
}

extension ReferenceGraph {
  /// One object (or closure, or collection storage) of the graph.
  public struct Node: Hashable, Sendable, Codable {
    /// A stable id, unique in the graph (see ``ReferenceGraph/identifier(for:)``).
    public var id: String
    /// What the node is called: `AlertController#1`, `closure`, `Dictionary storage`.
    public var title: String
    /// What kind of heap object it is; closures are drawn with round corners.
    public var kind: Kind
    /// More lines under the title: for a closure, where it was written and what it captures.
    public var details: [String]
    /// A root: something outside the graph holds it (a notification center, a queue).
    public var isRoot: Bool
    /// One of the leaked objects the graph explains.
    public var isLeaked: Bool

    /// Creates a node.
    public init(
      id: String, title: String, kind: Kind = .object, details: [String] = [], isRoot: Bool = false,
      isLeaked: Bool = false
    ) {
      self.id = id
      self.title = title
      self.kind = kind
      self.details = details
      self.isRoot = isRoot
      self.isLeaked = isLeaked
    }

    private enum CodingKeys: String, CodingKey {
      case id, title, kind, details
      case isRoot = "root"
      case isLeaked = "leaked"
    }

    /// What kind of heap object a node is.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
      /// An instance of a class.
      case object
      /// A closure's context: the heap object holding its captures.
      case closure
      /// The storage of an `Array`, `Dictionary` or `Set`.
      case collection
      /// Anything else (a box, an opaque block).
      case other
    }
  }

  /// One reference from a node to a node: a stored property, a closure
  /// capture or a collection element.
  public struct Edge: Hashable, Sendable, Codable {
    /// The node holding the reference.
    public var from: String
    /// The node referred to.
    public var to: String
    /// Where the reference is stored: `delegate`, `actions[1]`, `captures[0]`, `word 3`.
    public var label: String
    /// When the reference is a closure whose context is the target itself (a
    /// closure capturing only one object): the closure, `closure in A.load()`.
    public var closure: String?
    /// How the reference holds its target.
    public var strength: Strength
    /// The reference to break: the one that closes the cycle.
    public var isCulprit: Bool

    /// Creates an edge.
    public init(
      from: String, to: String, label: String, closure: String? = nil, strength: Strength = .strong,
      isCulprit: Bool = false
    ) {
      self.from = from
      self.to = to
      self.label = label
      self.closure = closure
      self.strength = strength
      self.isCulprit = isCulprit
    }

    private enum CodingKeys: String, CodingKey {
      case from, to, label, closure, strength
      case isCulprit = "culprit"
    }

    /// The label with the closure, if any: `completion: closure in A.load()`,
    /// `captures closure in A.load()`.
    public var fullLabel: String {
      guard let closure else { return label }
      return label.hasPrefix("captures") ? "\(label) \(closure)" : "\(label): \(closure)"
    }

    /// The label as drawn and written: `actions[1] (strong)`, `word 3 (conservative)`.
    public var caption: String { "\(fullLabel) (\(strength.rawValue))" }
  }

  /// How a reference holds its target.
  public enum Strength: String, Hashable, Sendable, Codable, CaseIterable {
    /// Keeps the target alive.
    case strong
    /// `weak`: does not keep the target alive.
    case weak
    /// `unowned`: does not keep the target alive, traps after it dies.
    case unowned
    /// `unowned(unsafe)` or `Unmanaged`: not counted at all.
    case unmanaged
    /// Found by scanning memory the metadata cannot describe for a word that
    /// looks like the target's address: probably strong, not certain.
    case conservative
    /// Could not be told (a `Mirror` fallback).
    case unknown

    /// Whether the reference keeps (or may keep) its target alive.
    public var keepsTargetAlive: Bool { self == .strong || self == .conservative || self == .unknown }
  }
}
