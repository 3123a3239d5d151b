import MemoryView

extension HeapModel {
  /// Why one block is alive, step by step, ready to be drawn or copied: the
  /// chain of references from a true root to it, or the retain cycle
  /// through it, with its strong references accounted for.
  ///
  /// ```swift
  /// if let why = model.whyAlive(block) {
  ///   print(why.text)        // global responseCache in GrowingHeap → Dictionary<…> storage → values[3]: CachedResponse
  ///   print(why.accounting)  // 1 of 1 strong reference found
  /// }
  /// ```
  public struct WhyAlive: Sendable, Hashable {
    /// A root path (from ``root``) or a retain cycle (the last step leads back to the first node).
    public enum Shape: String, Sendable, Hashable {
      case rootPath
      case cycle
    }

    public var shape: Shape
    /// The root the path starts from (`global responseCache in GrowingHeap`); nil for a cycle.
    public var root: String?
    /// The blocks, named as a census names them: the first is held by the
    /// root (or starts the cycle); for a root path the last is the block asked about.
    public var nodes: [String]
    /// `labels[i]` is the reference from `nodes[i]` to the next node (for a
    /// cycle the last one leads back to `nodes[0]`).
    public var labels: [String]
    /// The retain-count account of the block asked about ("3 of 3 strong references found").
    public var accounting: String?

    public init(shape: Shape, root: String?, nodes: [String], labels: [String], accounting: String?) {
      self.shape = shape
      self.root = root
      self.nodes = nodes
      self.labels = labels
      self.accounting = accounting
    }

    /// The path in one line: `global cache in Feed → Array<AnyObject> storage → [3]: Record`,
    /// or `Session → handler: Handler → session: Session (cycle)`.
    public var text: String {
      var parts: [String] = root.map { [$0] } ?? []
      parts.append(nodes.first ?? "")
      for (index, label) in labels.enumerated() {
        let next = index + 1 < nodes.count ? nodes[index + 1] : nodes.first ?? ""
        parts.append("\(label): \(next)")
      }
      return parts.joined(separator: " → ") + (shape == .cycle ? " (cycle)" : "")
    }
  }

  /// Why `block` is alive: its path from a lasting root (a global,
  /// thread-local storage or a registered root) when it has one, else the
  /// retain cycle through it, else its path from any root; nil when none is
  /// found (the model's scope must be full).
  public func whyAlive(_ block: Int) -> WhyAlive? {
    let accounting = strongReferences(of: block)?.description
    let search = pathToRoot(from: block, accepts: GrowthPath.isLasting)
    if let path = search.path, GrowthPath.isLasting(path.root.kind) {
      return whyAlive(path, accounting: accounting)
    }
    if let edges = shortestCycle(through: block), !edges.isEmpty {
      return WhyAlive(
        shape: .cycle, root: nil, nodes: edges.map { censusLabel(of: $0.source) },
        labels: edges.map { label(of: $0).text }, accounting: accounting)
    }
    return search.path.map { whyAlive($0, accounting: accounting) }
  }

  private func whyAlive(_ path: RootPath, accounting: String?) -> WhyAlive {
    WhyAlive(
      shape: .rootPath, root: describe(path.root), nodes: path.blocks.map { censusLabel(of: $0) },
      labels: path.edges.map { label(of: $0).text }, accounting: accounting)
  }
}
