import Foundation

/// The process a leak check looked at, as the JSON report describes it.
public struct CheckedProcess: Sendable, Hashable {
  /// How LeakLab got hold of it.
  public enum Mode: String, Sendable, Codable {
    /// `leaklab leaks -- PROGRAM`: started and held at its exit.
    case launched
    /// `leaklab leaks --pid PID`: a running process, stopped and let go.
    case attached
  }

  public var pid: Int32
  /// The executable's path (`/proc/PID/exe`).
  public var executable: String
  /// The arguments after the executable (launched programs only).
  public var arguments: [String]
  public var mode: Mode
  /// How it ended (launched programs, once finished).
  public var ending: ProcessEnding?

  /// Describes a checked process.
  public init(pid: Int32, executable: String, arguments: [String], mode: Mode, ending: ProcessEnding? = nil) {
    self.pid = pid
    self.executable = executable
    self.arguments = arguments
    self.mode = mode
    self.ending = ending
  }
}

extension LeakReport {
  /// The report as JSON for machines (schema: docs/leaks-json.md; `schema` is
  /// its version). Every leaked block is listed with its references; nothing
  /// is cut short as the text report is.
  public func json(
    process: CheckedProcess, reachable: [ReachableInstance] = [], analysis: AnalysisFigures? = nil,
    baseline: BaselineComparison? = nil
  ) -> Data {
    let document = LeakDocument(
      schema: 2,
      process: .init(process),
      summary: .init(
        leakedObjects: leakedBlocks, leakedBytes: leakedBytes, leakedHeapBlocks: leakedHeapBlocks,
        retainCycles: cycles.count,
        suppressedBlocks: suppressed.reduce(0) { $0 + $1.blocks }),
      kinds: kinds.map(LeakDocument.Kind.init),
      objects: objects(),
      cycles: cycles.map { .init(root: $0.root, members: $0.members) },
      suppressed: suppressed.map {
        .init(
          pattern: $0.pattern, reason: $0.reason, blocks: $0.blocks, bytes: $0.bytes, holds: $0.holds,
          kinds: $0.kinds.map { LeakDocument.Kind($0, listed: false) })
      },
      baseline: baseline.map(LeakDocument.Baseline.init),
      reachable: reachable.map(LeakDocument.Reachable.init),
      analysis: analysis)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding plain values of these types cannot fail.
    return (try? encoder.encode(document)) ?? Data()
  }

  private func objects() -> [LeakDocument.Object] {
    let outgoing = graph.outgoing()
    return graph.blocks.enumerated().map { index, block in
      LeakDocument.Object(
        id: index, address: hex(block.address), size: block.size, kind: block.kind, type: block.typeName,
        qualifiedType: block.qualifiedTypeName, programType: block.isProgramType,
        leakKind: kindOfBlock[index] < 0 ? nil : kinds[kindOfBlock[index]].id,
        references: outgoing[index].map {
          .init(
            to: $0.to, label: $0.label, strength: $0.strength.rawValue, conservative: $0.isConservative,
            closure: $0.closure)
        }, allocation: block.allocation.map(AllocationSite.Document.init))
    }
  }
}

func hex(_ address: UInt) -> String { "0x" + String(address, radix: 16) }

/// The JSON document (see docs/leaks-json.md).
struct LeakDocument: Encodable {
  var schema: Int
  var process: Process
  var summary: Summary
  var kinds: [Kind]
  var objects: [Object]
  var cycles: [Cycle]
  var suppressed: [Suppressed]
  var baseline: Baseline?
  var reachable: [Reachable]
  var analysis: AnalysisFigures?

  struct Process: Encodable {
    var pid: Int32
    var executable: String
    var arguments: [String]
    var mode: CheckedProcess.Mode
    var exitStatus: Int32?
    var signal: Int32?

    init(_ process: CheckedProcess) {
      pid = process.pid
      executable = process.executable
      arguments = process.arguments
      mode = process.mode
      if case .exited(let status)? = process.ending { exitStatus = status }
      if case .signalled(let number)? = process.ending { signal = number }
    }
  }

  struct Summary: Encodable {
    var leakedObjects: Int
    var leakedBytes: Int
    var leakedHeapBlocks: Int
    var retainCycles: Int
    var suppressedBlocks: Int
  }

  struct Object: Encodable {
    var id: Int
    var address: String
    var size: Int
    var kind: LeakedBlock.Kind
    var type: String
    var qualifiedType: String?
    var programType: Bool
    var leakKind: String?
    var references: [Reference]
    var allocation: AllocationSite.Document?
  }

  struct Kind: Encodable {
    var id: String
    var signature: String
    var cycle: Bool
    var count: Int
    var blocks: Int
    var bytes: Int
    /// The ids of the objects at each leak's root (nil for what a suppression set aside: not listed).
    var roots: [Int]?
    /// The catalogue pattern and lint rule of the cycle's shape.
    var pattern: LeakPattern?
    /// The first leak read as a trace: what is expected of each object on
    /// its cycle's way back, and which references are the suspects.
    var trace: Trace?
    /// What `leaklab lint --sources` found for the pattern in the program's sources.
    var lint: [String]?

    struct Trace: Encodable {
      struct Expected: Encodable {
        var id: Int
        var expected: String
        var why: String?
      }
      struct Link: Encodable {
        var from: Int
        var label: String
        var to: Int
        var suspect: Bool
      }
      var objects: [Expected]
      var references: [Link]
    }

    init(_ kind: LeakKind) {
      self.init(kind, listed: true)
    }

    init(_ kind: LeakKind, listed: Bool) {
      id = kind.id
      signature = kind.signature
      cycle = kind.isCycle
      count = kind.count
      blocks = kind.blocks
      bytes = kind.bytes
      roots = listed ? kind.roots : nil
      pattern = kind.pattern
      lint = kind.lintLines.isEmpty ? nil : kind.lintLines
      if listed, let reading = kind.reading, let root = kind.roots.first {
        let ids = [root] + kind.wayBack.dropLast().map(\.to)
        let suspects = Set(reading.suspects)
        trace = Trace(
          objects: zip(ids, reading.objects).map { .init(id: $0, expected: $1.word, why: $1.reason) },
          references: kind.wayBack.enumerated().map {
            .init(from: $1.from, label: $1.label, to: $1.to, suspect: suspects.contains($0))
          })
      }
    }
  }

  struct Baseline: Encodable {
    struct Counted: Encodable {
      var id: String
      var signature: String
      var count: Int
      var before: Int?
    }

    var file: String
    var new: [Counted]
    var gone: [Counted]
    var persisted: [Counted]

    init(_ comparison: BaselineComparison) {
      file = comparison.file
      new = comparison.new.map { Counted(id: $0.id, signature: $0.signature, count: $0.count) }
      gone = comparison.gone.map { Counted(id: $0.id, signature: $0.signature, count: 0, before: $0.count) }
      persisted = comparison.persisted.map {
        Counted(id: $0.kind.id, signature: $0.kind.signature, count: $0.kind.count, before: $0.before)
      }
    }
  }

  struct Reference: Encodable {
    var to: Int
    var label: String
    var strength: String
    var conservative: Bool
    var closure: String?
  }

  struct Cycle: Encodable {
    var root: Int
    var members: [Int]
  }

  struct Suppressed: Encodable {
    var pattern: String
    var reason: String?
    var blocks: Int
    var bytes: Int
    var holds: [String]
    var kinds: [Kind]
  }

  struct Reachable: Encodable {
    var type: String
    var address: String
    var size: Int
    var path: [String]

    init(_ instance: ReachableInstance) {
      type = instance.typeName
      address = hex(instance.address)
      size = instance.size
      path = instance.path
    }
  }
}
