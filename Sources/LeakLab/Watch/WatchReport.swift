import Foundation
import ProcessLeaks

/// What `r` writes in `leaklab watch`: the process, the newest census with
/// each type's change since the mark and its recent counts, and the leaks;
/// with `--stacks`, each type's and each kind of leak's allocation site
/// (``AllocationSite/Document``, as `leaklab leaks --json` writes it).
///
/// ```json
/// {"schema": 1, "process": {"name": "GrowingHeap", "pid": 4242, …},
///  "types": [{"name": "CachedResponse", "count": 250, "sinceMark": 200, "counts": [50, 150, 250],
///             "allocation": {"summary": "allocated in handleRequest(_:) at …", …}, "allocatedThere": 250, …}],
///  "leaks": [{"count": 3, "signature": "FeedService ⇄ LoadFeedUseCase (completion, service)", …}]}
/// ```
struct WatchReport: Codable, Sendable {
  var schema = 1
  var process: Process
  var snapshots: Int
  var markSnapshot: Int
  var stoppedMilliseconds: Double?
  var blocks: Int?
  var bytes: Int?
  var types: [TypeRow]
  var leaks: [Leak]
  var leakSummary: String?

  struct Process: Codable, Sendable {
    var name: String
    var pid: Int32
    var launched: Bool
    var output: String?
    var ending: String?
    /// Whether it ran under the allocation recorder (`--stacks`).
    var stacks: Bool?
  }

  struct TypeRow: Codable, Sendable {
    var key: String
    var name: String
    var module: String?
    var programType: Bool
    var count: Int
    var bytes: Int
    var sinceMark: Int
    var counts: [Int]
    /// With `--stacks`: the site that allocated the most of its live instances, and how many it allocated.
    var allocation: AllocationSite.Document?
    var allocatedThere: Int?
  }

  struct Leak: Codable, Sendable {
    var id: String
    var signature: String
    var cycle: Bool
    var count: Int
    var blocks: Int
    var bytes: Int
    /// With `--stacks`: the site that allocated the first leak's root.
    var allocation: AllocationSite.Document?
  }

  init(_ state: WatchState) {
    process = Process(
      name: state.process.name, pid: state.process.pid, launched: state.process.isLaunched,
      output: state.process.outputPath, ending: state.ending, stacks: state.process.recordsStacks)
    snapshots = state.snapshotCount
    markSnapshot = state.markSnapshot
    stoppedMilliseconds = state.latest.map { ($0.stoppedMilliseconds * 10).rounded() / 10 }
    blocks = state.latest?.census.blocks
    bytes = state.latest?.census.bytes
    var unfiltered = state
    unfiltered.filter = ""
    let sites = state.latest?.sites ?? [:]
    types = unfiltered.rows.map {
      let site = sites[$0.entry.key]
      return TypeRow(
        key: $0.entry.key, name: $0.entry.name, module: $0.entry.module, programType: $0.entry.isProgramType,
        count: $0.entry.count, bytes: $0.entry.bytes, sinceMark: $0.sinceMark, counts: $0.counts,
        allocation: site.map { AllocationSite.Document($0.site) }, allocatedThere: site?.count)
    }
    let leakSites = state.latest?.leakSites ?? [:]
    leaks = state.leaks.map {
      Leak(
        id: $0.id, signature: $0.signature, cycle: $0.isCycle, count: $0.count, blocks: $0.blocks,
        bytes: $0.bytes, allocation: leakSites[$0.id].map(AllocationSite.Document.init))
    }
    leakSummary = state.latest?.leakSummary
  }

  /// The file name in the current directory: `leaklab-watch-GrowingHeap-4242-5.json`.
  static func fileName(_ state: WatchState) -> String {
    let name = state.process.name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
    return "leaklab-watch-\(String(name))-\(state.process.pid)-\(state.snapshotCount).json"
  }

  func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)) ?? Data()
  }
}
