import Foundation
import HeapModel
import MemoryView

/// A census as JSON (`leaklab heap --json`, schema: docs/heap-json.md): the
/// process, every type with its count, bytes and packed instance addresses,
/// and with `--diff-from` the comparison. A file written with `--json -o`
/// is what a later `--diff-from` reads.
///
/// ```swift
/// let data = CensusDocument(taken).encoded()
/// let earlier = try CensusDocument.decode(data).census
/// ```
public struct CensusDocument: Codable, Sendable {
  /// The format's version: a field may be added in a version, none removed
  /// or changed in meaning without a new one.
  public var schema: Int
  public var process: Process
  /// When the census was taken (ISO 8601).
  public var time: Date
  public var stoppedMilliseconds: Double
  /// LeakLab's CPU time while the process was stopped, milliseconds.
  public var cpuMilliseconds: Double?
  /// Milliseconds of each phase while the process was stopped (see ``TakenCensus/phases``).
  public var phases: [String: Double]?
  public var summary: Summary
  /// Every type with a live instance, the most bytes first.
  public var types: [TypeEntry]
  public var heapWalkNotes: [String]
  /// With `--diff-from`: what changed since that census.
  public var diff: Diff?

  public static let currentSchema = 1

  public struct Process: Codable, Sendable {
    public var pid: Int32
    public var executable: String
    public var arguments: [String]
    public var mode: CheckedProcess.Mode
    public var exitStatus: Int32?
    public var signal: Int32?

    init(_ process: CheckedProcess) {
      pid = process.pid
      executable = process.executable
      arguments = process.arguments
      mode = process.mode
      if case .exited(let status)? = process.ending { exitStatus = status }
      if case .signalled(let number)? = process.ending { signal = number }
    }
  }

  public struct Summary: Codable, Sendable {
    public var blocks: Int
    public var bytes: Int
    public var types: Int
  }

  public struct TypeEntry: Codable, Sendable {
    public var key: String
    public var name: String
    public var qualifiedName: String?
    public var kind: String
    public var module: String?
    public var image: String?
    public var programType: Bool
    public var count: Int
    public var bytes: Int
    public var addresses: Addresses?

    /// The instances' addresses: `deltas` is base64 of the sorted addresses
    /// divided by `unit`, each as its distance from the one before (the
    /// first from 0), an unsigned LEB128 number.
    public struct Addresses: Codable, Sendable {
      public var unit: UInt
      public var deltas: String
    }
  }

  public struct Diff: Codable, Sendable {
    /// The earlier census: its process and time.
    public var from: From
    /// The `--threshold` and `--gate` patterns the exit status used, and how
    /// many types (matching the patterns) grew past the threshold.
    public var threshold: Int
    public var gate: [String]
    public var grownPastThreshold: Int
    public var grown: [Change]
    public var shrunk: [Change]

    public struct From: Codable, Sendable {
      public var pid: Int32
      public var executable: String
      public var time: Date
    }

    public struct Change: Codable, Sendable {
      public var key: String
      public var name: String
      public var kind: String
      public var module: String?
      public var programType: Bool
      public var oldCount: Int
      public var newCount: Int
      public var growth: Int
      public var oldBytes: Int
      public var newBytes: Int
      public var newInstances: Int?
      /// A path from a root to one new instance: the root, then each block.
      public var path: [String]?
      /// The path's root kind: `global`, `threadLocal`, `stack`, …
      public var pathRoot: String?
      /// What is expected of each step of `path`: `alive`, `gone` or `unknown`.
      public var pathExpected: [String]?
      /// The indices into `path` of the steps reached by a suspect reference.
      public var pathSuspects: [Int]?
      /// Where most of its instances were allocated (`--stacks`): the text report's line.
      public var allocatedIn: String?
    }
  }

  /// The document of `taken`; `earlier` is the document it was compared with.
  public init(_ taken: TakenCensus, earlier: CensusDocument? = nil, threshold: Int = 0, gate: [String] = []) {
    schema = Self.currentSchema
    process = Process(taken.process)
    time = taken.time
    stoppedMilliseconds = (taken.stoppedMilliseconds * 10).rounded() / 10
    cpuMilliseconds = (taken.cpuMilliseconds * 10).rounded() / 10
    phases = taken.phases.mapValues { ($0 * 10).rounded() / 10 }
    summary = Summary(
      blocks: taken.census.blocks, bytes: taken.census.bytes, types: taken.census.entries.count)
    types = taken.census.entries.map(TypeEntry.init)
    heapWalkNotes = taken.heapWalkNotes
    if let comparison = taken.comparison {
      func change(_ change: CensusDiff.Change) -> Diff.Change {
        let path = comparison.paths[change.key]
        let reading = path?.reading(grown: CensusRun.grownReason(change))
        return Diff.Change(
          key: change.key, name: change.name, kind: "\(change.kind)", module: change.module,
          programType: change.isProgramType, oldCount: change.oldCount, newCount: change.newCount,
          growth: change.growth, oldBytes: change.oldBytes, newBytes: change.newBytes,
          newInstances: change.newInstances, path: path?.steps, pathRoot: path.map { Self.rootName($0.root) },
          pathExpected: reading?.objects.map(\.word), pathSuspects: reading?.suspects.map { $0 + 1 },
          allocatedIn: comparison.sites[change.key]?.summary)
      }
      diff = Diff(
        from: Diff.From(
          pid: earlier?.process.pid ?? 0, executable: earlier?.process.executable ?? "",
          time: earlier?.time ?? taken.time),
        threshold: threshold, gate: gate,
        grownPastThreshold: comparison.diff.grown(pastThreshold: threshold, matching: gate).count,
        grown: comparison.diff.grown.map(change), shrunk: comparison.diff.shrunk.map(change))
    }
  }

  /// `global`, `threadLocal`, `stack`, … : a root kind's case name.
  static func rootName(_ kind: RootKind) -> String {
    switch kind {
    case .global: "global"
    case .stack: "stack"
    case .unboundedStack: "unboundedStack"
    case .callerStack: "callerStack"
    case .threadLocal: "threadLocal"
    case .register: "register"
    case .mapping: "mapping"
    case .registered: "registered"
    }
  }

  /// The census the document holds: every type, with its addresses.
  public var census: HeapCensus {
    get throws(CensusFileError) {
      var entries: [HeapCensus.Entry] = []
      for type in types {
        guard let kind = BlockKind(name: type.kind) else {
          throw CensusFileError("unknown kind \"\(type.kind)\" of type \(type.name)")
        }
        var instances = InstanceAddresses()
        if let addresses = type.addresses {
          guard let bytes = Data(base64Encoded: addresses.deltas),
            let decoded = InstanceAddresses(bytes: [UInt8](bytes), unit: addresses.unit, count: type.count)
          else { throw CensusFileError("the addresses of \(type.name) do not match its count") }
          instances = decoded
        }
        entries.append(
          HeapCensus.Entry(
            key: type.key, name: type.name, qualifiedName: type.qualifiedName, kind: kind,
            module: type.module,
            image: type.image, isProgramType: type.programType, count: type.count, bytes: type.bytes,
            instances: instances))
      }
      return HeapCensus(entries: entries, blocks: summary.blocks, bytes: summary.bytes)
    }
  }

  /// The document as JSON: keys sorted, one type a line.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    // Encoding plain values of these types cannot fail.
    return (try? encoder.encode(self)) ?? Data()
  }

  /// Reads a document written by ``encoded()``.
  public static func decode(_ data: Data) throws(CensusFileError) -> CensusDocument {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let document: CensusDocument
    do {
      document = try decoder.decode(CensusDocument.self, from: data)
    } catch {
      throw CensusFileError("not a census written by leaklab heap --json (\(Self.reason(error)))")
    }
    guard document.schema == currentSchema else {
      throw CensusFileError("census schema \(document.schema), this leaklab reads \(currentSchema)")
    }
    return document
  }

  private static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): "no \"\(key.stringValue)\""
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
    case DecodingError.dataCorrupted(let context):
      context.codingPath.isEmpty
        ? "not JSON" : "bad value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
    default: "unreadable"
    }
  }
}

extension CensusDocument.TypeEntry {
  init(_ entry: HeapCensus.Entry) {
    key = entry.key
    name = entry.name
    qualifiedName = entry.qualifiedName
    kind = "\(entry.kind)"
    module = entry.module
    image = entry.image
    programType = entry.isProgramType
    count = entry.count
    bytes = entry.bytes
    addresses =
      entry.instances.count == entry.count
      ? Addresses(unit: entry.instances.unit, deltas: Data(entry.instances.bytes).base64EncodedString()) : nil
  }
}

/// Why a census file could not be used, in one line.
public struct CensusFileError: Error, Sendable, Equatable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

extension BlockKind {
  /// The kind whose case name is `name` (`object`, `arrayStorage`).
  init?(name: String) {
    guard let kind = Self.allCases.first(where: { "\($0)" == name }) else { return nil }
    self = kind
  }
}
