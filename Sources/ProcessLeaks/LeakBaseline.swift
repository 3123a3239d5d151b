import Foundation

/// The kinds of leak an earlier report found (its `--json`): what a team
/// accepts for now, so that CI fails on new kinds only.
///
/// ```swift
/// let baseline = try LeakBaseline.decode(Data(contentsOf: url))
/// let comparison = BaselineComparison(report: report, baseline: baseline, file: "leaks-main.json")
/// comparison.new.map(\.line)   // ["1 × Uploader ⇄ DispatchWorkItem (pending, captures)  [1d2c3b4a]"]
/// ```
public struct LeakBaseline: Sendable, Hashable {
  /// One kind of the earlier report.
  public struct Kind: Sendable, Hashable, Decodable {
    public var id: String
    public var signature: String
    public var count: Int

    /// A kind with `count` leaks.
    public init(id: String, signature: String, count: Int) {
      self.id = id
      self.signature = signature
      self.count = count
    }
  }

  /// The earlier report's kinds.
  public var kinds: [Kind]

  /// A baseline of `kinds`.
  public init(kinds: [Kind]) {
    self.kinds = kinds
  }

  /// Reads the kinds of a report `leaklab leaks --json` wrote.
  public static func decode(_ data: Data) throws(BadBaseline) -> LeakBaseline {
    struct Document: Decodable {
      var schema: Int
      var kinds: [Kind]?
    }
    guard let document = try? JSONDecoder().decode(Document.self, from: data) else {
      throw BadBaseline(description: "not a report of `leaklab leaks --json`")
    }
    guard let kinds = document.kinds else {
      throw BadBaseline(
        description:
          "a report without leak kinds (schema \(document.schema)): write it again with this leaklab")
    }
    return LeakBaseline(kinds: kinds)
  }
}

/// Why a file cannot be a baseline: one line.
public struct BadBaseline: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String

  /// The reason, as one line.
  public init(description: String) {
    self.description = description
  }
}

/// A report's kinds against a baseline's: which are new, which are gone,
/// which persisted (and how their counts moved).
public struct BaselineComparison: Sendable, Hashable {
  /// The baseline file, as given.
  public var file: String
  /// Kinds the baseline does not have.
  public var new: [LeakKind]
  /// The baseline's kinds this report does not have.
  public var gone: [LeakBaseline.Kind]
  /// Kinds in both, with the baseline's count.
  public var persisted: [Persisted]

  /// A kind in both reports.
  public struct Persisted: Sendable, Hashable {
    public var kind: LeakKind
    public var before: Int

    /// How many more leaks of the kind there are now (negative: fewer).
    public var growth: Int { kind.count - before }
  }

  /// Compares `report`'s kinds with `baseline`'s, by signature.
  public init(report: LeakReport, baseline: LeakBaseline, file: String) {
    self.file = file
    let before = Dictionary(
      baseline.kinds.map { ($0.signature, $0) }, uniquingKeysWith: { first, _ in first })
    let now = Set(report.kinds.map(\.signature))
    new = report.kinds.filter { before[$0.signature] == nil }
    persisted = report.kinds.compactMap { kind in
      before[kind.signature].map { Persisted(kind: kind, before: $0.count) }
    }
    gone = baseline.kinds.filter { !now.contains($0.signature) }
  }

  /// Whether the comparison fails a gate: a new kind, or (with a
  /// `threshold`) a persisted kind whose count grew by more than it;
  /// `counts` says which kinds the gate looks at.
  public func fails(threshold: Int?, counts: (LeakKind) -> Bool = { _ in true }) -> Bool {
    if new.contains(where: counts) { return true }
    guard let threshold else { return false }
    return persisted.contains { counts($0.kind) && $0.growth > threshold }
  }

  /// `Compared with leaks-main.json: 1 new, 1 gone, 2 persisted`, then a line per kind.
  public var textLines: [String] {
    var lines = ["Compared with \(file): \(new.count) new, \(gone.count) gone, \(persisted.count) persisted"]
    lines += new.map { "   new        \($0.line)" }
    lines += gone.map { "   gone       \($0.count) × \($0.signature)  [\($0.id)]" }
    lines += persisted.map { entry in
      let change = entry.growth == 0 ? "" : " (was \(entry.before))"
      return "   persisted  \(entry.kind.line)\(change)"
    }
    return lines
  }
}
