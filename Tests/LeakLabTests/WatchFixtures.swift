import Foundation
import HeapModel

@testable import LeakLab
@testable import ProcessLeaks

/// Made-up censuses for the watch's tests: a server's types, each instance
/// at its own address (the same addresses from one census to the next, so
/// growth makes new instances).
enum WatchFixtures {
  static let process = WatchState.Process(
    name: "Server", pid: 4242, isLaunched: true, outputPath: "/tmp/server.log")

  /// `count` instances of the program's class `name`, `size` bytes each, at addresses from `base`.
  static func entry(_ name: String, count: Int, size: Int = 32, base: UInt, program: Bool = true)
    -> HeapCensus.Entry
  {
    HeapCensus.Entry(
      key: "object Server.\(name)", name: name, qualifiedName: "Server.\(name)", kind: .object,
      module: program ? "Server" : "Swift", isProgramType: program, count: count, bytes: count * size,
      instances: InstanceAddresses(sorted: (0..<count).map { base + UInt($0) * 16 }))
  }

  /// A census of a server that has served `requests` requests: a session and
  /// a cycle per request, a fixed buffer.
  static func census(requests: Int) -> HeapCensus {
    let entries = [
      entry("Session", count: requests, size: 48, base: 0x10_0000),
      entry("Connection", count: requests, size: 40, base: 0x20_0000),
      entry("Buffer", count: 1, size: 4096, base: 0x30_0000, program: false),
    ]
    return HeapCensus(
      entries: entries, blocks: entries.reduce(0) { $0 + $1.count },
      bytes: entries.reduce(0) { $0 + $1.bytes })
  }

  static let cycle = LeakKind(
    id: "3744f905", signature: "Connection ⇄ RequestHandler (handler, connection)", isCycle: true,
    roots: [0, 2, 4], blocks: 6, bytes: 192)

  static func snapshot(requests: Int, leaks: [LeakKind] = [cycle]) -> WatchSnapshot {
    WatchSnapshot(
      time: Date(timeIntervalSince1970: 1_800_000_000 + Double(requests)), stoppedMilliseconds: 12.5,
      census: census(requests: requests), leaks: leaks,
      leakSummary: "6 leaked objects, 192 bytes, 3 retain cycles")
  }

  /// A state fed the censuses of `requests`, one after the other.
  static func state(after requests: [Int]) -> WatchState {
    var state = WatchState(process: process)
    for count in requests { _ = WatchReducer.reduce(&state, .snapshotTaken(snapshot(requests: count))) }
    return state
  }

  /// Where the server makes a session (`--stacks`): the allocator, the
  /// compiler's allocating entry point, then the program's line and its caller.
  static let sessionSite = AllocationSite(frames: [
    SourceFrame(
      address: 0x7f00_0000_1234, function: "swift_allocObject", image: "libswiftCore.so", isProgramCode: false
    ),
    SourceFrame(
      address: 0x5600_0000_2000, function: "Session.__allocating_init(number:)", image: "Server",
      isProgramCode: false, isInExecutable: true),
    SourceFrame(
      address: 0x5600_0000_3000, function: "serve(_:)", image: "Server", file: "Sources/Server/main.swift",
      line: 38, isProgramCode: true, isInExecutable: true),
    SourceFrame(
      address: 0x5600_0000_4000, function: "main", image: "Server", file: "Sources/Server/main.swift",
      line: 61, isProgramCode: true, isInExecutable: true),
  ])

  /// ``snapshot(requests:leaks:)`` as `--stacks` reads it: every session made by ``sessionSite``
  /// but the first, made elsewhere.
  static func recordedSnapshot(requests: Int) -> WatchSnapshot {
    var snapshot = snapshot(requests: requests)
    snapshot.sites = [
      "object Server.Session": .init(site: sessionSite, count: requests - 1, recorded: requests)
    ]
    snapshot.leakSites = [cycle.id: sessionSite]
    return snapshot
  }

  static let rootPath = HeapModel.WhyAlive(
    shape: .rootPath, root: "global sessionLog in Server",
    nodes: ["Array<AnyObject> storage", "Session"], labels: ["[7]"],
    accounting: "1 of 1 strong reference found")
}
