import Foundation
import HeapModel
import MemoryView
import ProcessLeaks

/// The census (`leaklab heap`): this process holds 10^6 Swift objects, a
/// census counts them by type; then 10^5 more are made and a second census
/// is compared with the first (goals: a census ≤ 300 ms, a diff ≤ 50 ms).
/// `leaklab heap -- LiveObjects` itself is in the `leaks` section.
enum CensusBenchmarks {
  static func run() {
    censusObjects = (0..<1_000_000).map { CensusObject(number: $0) }
    var rows: [[String]] = []
    func timed(_ label: String, repetitions: Int, _ body: () -> Void) {
      let clock = ContinuousClock()
      var walls: [Duration] = []
      var cpus: [Duration] = []
      for _ in 0..<repetitions {
        var cpu = Duration.zero
        walls.append(clock.measure { cpu = cpuTime(.thread, body) })
        cpus.append(cpu)
      }
      rows.append([label, format(walls.sorted()[repetitions / 2]), format(cpus.sorted()[repetitions / 2])])
    }

    timed("census, whole: frozen copy, heap walk, blocks typed, counted (goal ≤ 300 ms)", repetitions: 7) {
      guard let model = try? HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy(), scope: .types) else {
        fatalError("no census of this process")
      }
      precondition(model.census().count(ofType: censusTypeName) == 1_000_000)
    }
    guard let snapshot = try? ProcessSnapshot.ofFrozenCopy(),
      let typed = try? HeapModel(snapshot: snapshot, scope: .types)
    else {
      print("census: cannot take a snapshot of this process")
      return
    }
    timed("  blocks typed from the walk's words (census scope)", repetitions: 7) {
      _ = try? HeapModel(snapshot: snapshot, scope: .types)
    }
    timed("  counted by type, addresses packed", repetitions: 7) { _ = typed.census() }
    timed("  for comparison: every reference read (full scope)", repetitions: 3) {
      _ = try? HeapModel(snapshot: snapshot)
    }
    let before = typed.census()
    censusObjects += (0..<100_000).map { CensusObject(number: $0) }
    guard let after = try? HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy(), scope: .types).census()
    else {
      return
    }
    timed("diff of two censuses of 10^6 objects, 10^5 new (goal ≤ 50 ms)", repetitions: 9) {
      let diff = CensusDiff(from: before, to: after)
      precondition(diff.grown.first { $0.name == "CensusObject" }?.newInstances == 100_000)
    }
    let taken = TakenCensus(
      process: CheckedProcess(pid: getpid(), executable: "LeakLabBenchmarks", arguments: [], mode: .attached),
      census: before, time: Date(), stoppedMilliseconds: 0, heapWalkNotes: [], comparison: nil)
    let json = CensusDocument(taken).encoded()
    timed(
      "  the earlier census read from its JSON (\(rounded(Double(json.count) / 1_048_576)) MB)",
      repetitions: 5
    ) {
      _ = try? CensusDocument.decode(json).census
    }
    timed("  written as JSON", repetitions: 5) { _ = CensusDocument(taken).encoded() }
    printTable(title: "Census of 10^6 objects (medians)", header: ["benchmark", "wall", "CPU"], rows: rows)
    let entry = before.entries.first { $0.name == "CensusObject" }
    print(
      "heap: \(snapshot.heap.count) live blocks; \(before.entries.count) types; "
        + "10^6 addresses packed in \(rounded(Double(entry?.instances.bytes.count ?? 0) / 1_048_576)) MB")
    censusObjects = []
  }

  static let censusTypeName = String(reflecting: CensusObject.self)
}

nonisolated(unsafe) private var censusObjects: [CensusObject] = []

final class CensusObject {
  let number: Int
  init(number: Int) { self.number = number }
}
