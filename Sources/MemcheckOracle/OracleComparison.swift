/// What a leak detector said about one run at one moment: the instances it
/// reported, and why each was alive.
public struct DetectorClaim: Sendable, Codable, Equatable {
  /// One reported instance.
  public struct Leak: Sendable, Codable, Equatable {
    /// What the retain-path explainer found.
    public enum Path: String, Sendable, Codable {
      /// A strong cycle through the object.
      case cycle
      /// A strong path from a registered root.
      case root
      /// Nothing visible holds it; or no explanation was asked for.
      case notVisible = "not visible"
    }

    /// The class name, without its module.
    public var typeName: String
    /// Why it was alive when reported; nil when not explained.
    public var path: Path?
    /// Whether it was still alive at the claim's moment (not resolved).
    public var isOpen: Bool

    public init(typeName: String, path: Path?, isOpen: Bool) {
      self.typeName = typeName
      self.path = path
      self.isOpen = isOpen
    }
  }

  /// The detector's summary label at the moment.
  public var label: String
  /// Every instance reported so far.
  public var leaks: [Leak]

  public init(label: String, leaks: [Leak]) {
    self.label = label
    self.leaks = leaks
  }

  /// The types of the instances alive at the moment.
  public var openTypes: Set<String> { Set(leaks.filter(\.isOpen).map(\.typeName)) }
}

/// The classes with instances memcheck found still allocated at exit.
public struct MemcheckFindings: Sendable, Equatable {
  /// Whether memcheck could reach an object from the program's roots.
  public enum Reachability: String, Sendable {
    /// Held from a global, a stack or a register, directly or not.
    case reachable
    /// Nothing reachable points at it: it lives in a cycle (or is orphaned).
    case unreachable
  }

  /// Class name (without module) → reachability; reachable if any instance is.
  public var alive: [String: Reachability]
  /// Definitely or indirectly lost blocks whose ``LossRecord/allocatingModule``
  /// is one of `ownModules`: what the checking code itself leaked. Left out: weak
  /// reference side tables (one belongs to the object it describes, whoever
  /// formed the reference) and "possibly lost" blocks, which the Swift
  /// runtime's metadata caches produce (they point into their own blocks).
  public var ownLostBlocks: Int

  /// The classes of `modules` among `records`, and the unreachable blocks
  /// allocated under the code of `ownModules` (a leak detector's, say).
  public init(records: [LossRecord], modules: Set<String>, ownModules: Set<String> = []) {
    var alive: [String: Reachability] = [:]
    for record in records {
      guard let type = record.allocatedClass, modules.contains(type.module) else { continue }
      let reachability: Reachability = record.kind.isUnreachable ? .unreachable : .reachable
      if alive[type.name] != .reachable { alive[type.name] = reachability }
    }
    self.alive = alive
    ownLostBlocks = records.filter { record in
      (record.kind == .definitelyLost || record.kind == .indirectlyLost)
        && !record.frames.contains { $0.contains("formWeakReference") }
        && record.allocatingModule.map(ownModules.contains) == true
    }.reduce(0) { $0 + $1.blocks }
  }

  public init(alive: [String: Reachability], ownLostBlocks: Int = 0) {
    self.alive = alive
    self.ownLostBlocks = ownLostBlocks
  }

  /// The names of the classes memcheck found, sorted.
  public var aliveTypes: [String] { alive.keys.sorted() }
}

/// A detector's verdict on one run set against memcheck's, the judge nobody
/// on the team wrote, at the same moments of the same run.
///
/// The rules, each a fact about memory rather than about the detector:
/// 1. Every type the detector reports alive, memcheck finds allocated.
/// 2. A clean verdict: memcheck finds no instance of the watched modules.
/// 3. An instance memcheck cannot reach from any root is held by a cycle of
///    strong references, so the explainer must have found a path to it (a
///    cycle, or a path from another leaked object) — never "not visible".
/// 4. Later (the end of the run): types the detector saw resolve are gone,
///    types it still reports are still allocated.
/// 5. The detector itself leaves no unreachable block behind.
public struct OracleComparison: Sendable {
  /// The rules broken, in words; empty when the two judges agree.
  public var disagreements: [String] = []

  /// Whether both judges agree.
  public var agrees: Bool { disagreements.isEmpty }

  /// Compares the claim made one grace delay after the close with memcheck at
  /// that moment and, when given, the claim and memcheck at the end of the run.
  public init(
    atGrace claim: DetectorClaim, memcheck: MemcheckFindings, atEnd: (DetectorClaim, MemcheckFindings)? = nil
  ) {
    for type in claim.openTypes.sorted() where memcheck.alive[type] == nil {
      disagreements.append("\(type) reported alive, but memcheck found it freed")
    }
    if claim.leaks.isEmpty, !memcheck.alive.isEmpty {
      disagreements.append(
        "clean, but memcheck found \(memcheck.aliveTypes.joined(separator: ", ")) allocated")
    }
    for leak in claim.leaks where leak.isOpen && leak.path == .notVisible {
      if memcheck.alive[leak.typeName] == .unreachable {
        disagreements.append("\(leak.typeName) is unreachable (a cycle), but no retain path was shown")
      }
    }
    let findings = [memcheck] + (atEnd.map { [$0.1] } ?? [])
    if let lost = findings.map(\.ownLostBlocks).max(), lost > 0 {
      disagreements.append("the detector's own code left \(lost) lost blocks")
    }
    guard let (endClaim, endMemcheck) = atEnd else { return }
    for type in endClaim.openTypes.sorted() where endMemcheck.alive[type] == nil {
      disagreements.append("\(type) still reported at the end, but memcheck found it freed")
    }
    let resolved = claim.openTypes.subtracting(endClaim.openTypes)
    for type in resolved.sorted() where endMemcheck.alive[type] != nil {
      disagreements.append("\(type) reported resolved, but memcheck found it still allocated")
    }
  }
}
