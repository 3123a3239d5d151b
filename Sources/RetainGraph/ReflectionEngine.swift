import CRemoteMirror
import HeapModel
import LeakLabLocking

/// A search result read under the engine's lock, before names are given.
struct SearchReport: Sendable {
  enum Kind: Sendable { case cycle, root, none }

  var kind: Kind
  var start: ObjectInfo
  var steps: [Reference]
  /// Metadata of the class instances on the path, to re-validate them before naming.
  var metadata: [UInt: UInt]
  var isTruncated: Bool
  var visited: Int
}

/// The process-wide Remote Mirror context for one read mode, serialized by a lock.
///
/// The reflection context is not thread-safe and is costly to set up (about
/// 5 ms of lazy work on first use), so every explainer shares one per read
/// mode and holds the lock for a whole search.
final class ReflectionEngine: Sendable {
  let session: Locked<ReflectionSession>

  /// Safe reads (`process_vm_readv`), or nil when the library cannot be initialised.
  static let safe = ReflectionEngine(safeReads: true)
  /// Direct reads, or nil when the library cannot be initialised.
  static let direct = ReflectionEngine(safeReads: false)

  /// The engines made so far, in the order they were made (the order their
  /// locks are taken together in).
  private static let made = Locked<[ReflectionEngine]>([])

  private init?(safeReads: Bool) {
    guard let types = SwiftTypes(ownProcess: safeReads) else { return nil }
    let session = ReflectionSession(types: types, safeReads: safeReads)
    guard session.passesSelfCheck() else { return nil }
    self.session = Locked(session)
    Self.made.withLock { $0.append(self) }
  }

  /// Runs `body` with every engine's library context released (see
  /// ``SwiftTypes/withContextReleased(_:)``), each engine's lock held: a
  /// frozen copy forked in `body` holds no Remote Mirror memory, so the
  /// explainer's own memory in it is its Swift objects alone. Each new
  /// context is warmed before its lock is let go: the library's first type
  /// lookup reads every image's reflection sections (55 ms in the
  /// benchmarks' process), which the memory search pays, off an app's main
  /// thread, rather than the next describe.
  static func withContextsReleased<Result>(_ body: () throws -> Result) rethrows -> Result {
    let engines = made.withLock { $0 }
    func release(from index: Int) throws -> Result {
      guard index < engines.count else { return try body() }
      return try engines[index].session.withLock { session in
        defer { _ = session.passesSelfCheck() }
        return try session.types.withContextReleased { try release(from: index + 1) }
      }
    }
    return try release(from: 0)
  }

  /// The outgoing references of the object at `address`, described but not named.
  func references(of address: UInt) -> (references: [Reference], metadata: [UInt: UInt]) {
    session.withLock { session in
      session.beginDescribe(address)
      defer { session.endDescribe(address) }
      var raw: [RawEdge] = []
      session.edges(of: address, strongOnly: false, into: &raw)
      var metadata: [UInt: UInt] = [:]
      metadata.reserveCapacity(raw.count)
      var references: [Reference] = []
      references.reserveCapacity(raw.count)
      // The targets' metadata words in one batch, in buffers on the stack.
      withUnsafeTemporaryAllocation(of: UInt.self, capacity: raw.count * 2) { buffer in
        let addresses = UnsafeMutableBufferPointer(rebasing: buffer[0..<raw.count])
        let words = UnsafeMutableBufferPointer(rebasing: buffer[raw.count...])
        for (index, edge) in raw.enumerated() { addresses[index] = edge.target }
        session.readWords(UnsafeBufferPointer(addresses), into: words)
        for (index, edge) in raw.enumerated() {
          let target = session.objectInfo(at: edge.target, metadata: words[index])
          if target.info.kind == .object { metadata[edge.target] = target.metadata }
          references.append(session.describe(edge, target: target.info))
        }
      }
      return (references, metadata)
    }
  }

  /// Whether the closure context at `address` lays out its captures like
  /// every other context of its closure (false for a generic closure), or nil
  /// when `address` is not a closure context.
  func contextHasFixedLayout(_ address: UInt) -> Bool? {
    session.withLock { session in
      guard let metadata = session.word(at: address),
        session.heapMetadataKind(metadata) == UInt(SOLKindHeapLocalVariable)
      else { return nil }
      return session.capturesHaveFixedLayout(contextMetadata: metadata)
    }
  }

  /// Turns speculative reads on or off (safe reads only; on by default).
  func setSpeculativeReads(_ enabled: Bool) {
    session.withLock { $0.setSpeculates(enabled) }
  }

  /// Looks for the shortest strong cycle through `address`, then for a strong
  /// path from `roots` to it.
  func search(_ address: UInt, roots: [UInt], limits: SearchLimits) -> SearchReport {
    session.withLock { session in
      var report = SearchReport(
        kind: .none, start: session.objectInfo(at: address), steps: [], metadata: [:], isTruncated: false,
        visited: 0)
      let attempts: [(kind: SearchReport.Kind, sources: [UInt])] = [(.cycle, [address]), (.root, roots)]
      for attempt in attempts where !attempt.sources.isEmpty {
        if attempt.kind == .root, roots.contains(address) {
          report.kind = .root
          return report
        }
        var sawConservative = false
        for allowConservative in [false, true] {
          if allowConservative && !sawConservative { break }
          let outcome = PathSearch<UInt, RawEdge>.shortestPath(
            from: attempt.sources, to: address, limits: limits
          ) { node in
            var raw: [RawEdge] = []
            session.edges(of: node, strongOnly: true, into: &raw)
            return raw.compactMap { edge in
              if edge.isConservative {
                sawConservative = true
                if !allowConservative { return nil }
              }
              // A word no metadata names costs more than a named reference:
              // of two equally short cycles, the one Swift metadata names wins.
              return (target: edge.target, edge: edge, cost: edge.cost)
            }
          }
          report.visited += outcome.visited
          report.isTruncated = report.isTruncated || outcome.isTruncated
          if let path = outcome.path, let first = path.first {
            report.kind = attempt.kind
            let nodes = session.objectInfos(at: [first.from] + path.map(\.edge.target))
            report.start = nodes[0].info
            report.steps = zip(path, nodes.dropFirst()).map { session.describe($0.edge, target: $1.info) }
            for node in nodes where node.info.kind == .object {
              report.metadata[node.info.address] = node.metadata
            }
            return report
          }
        }
      }
      return report
    }
  }
}

extension ReflectionSession {
  /// A raw edge as a reference, with its target described but not named.
  func describe(_ edge: RawEdge, target: ObjectInfo) -> Reference {
    Reference(
      label: edge.label, strength: edge.strength, isConservative: edge.isConservative,
      closure: edge.function != 0 ? ClosureNames.name(of: edge.function) : nil, target: target)
  }
}
