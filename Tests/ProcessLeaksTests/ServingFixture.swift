import Foundation

/// A growth fixture started with `--serve`: it handles requests in batches
/// the test writes to its standard input, and says `served TOTAL` and its
/// own live count after each one.
///
/// ```swift
/// let fixture = try ServingFixture(["audit", "leaky"])
/// try fixture.handle(50)       // "served 50", "live AuditRecord: 50"
/// fixture.pid                  // for `leaklab heap --pid`
/// try fixture.end()            // end of input: it prints its count and exits
/// ```
final class ServingFixture {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending = Data()
  /// The fixture's own count of its class's live instances, as it last printed it.
  private(set) var liveCount: Int?

  var pid: Int32 { process.processIdentifier }

  init(_ arguments: [String], executable: String = LeaksCommand.fixture("GrowingHeap")) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments + ["--serve"]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let first = try line()
    guard first == "ready" else { throw Failure("the fixture said \"\(first)\" instead of ready") }
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  /// Sends `count` requests and waits until the fixture says it served them;
  /// returns the total it served.
  @discardableResult
  func handle(_ count: Int) throws -> Int {
    input.fileHandleForWriting.write(Data("\(count)\n".utf8))
    let served = try line()
    guard served.hasPrefix("served "), let total = Int(served.dropFirst("served ".count)) else {
      throw Failure("the fixture said \"\(served)\" instead of served N")
    }
    try readLiveCount()
    return total
  }

  /// Ends the fixture's input and waits for it to exit; returns its status.
  @discardableResult
  func end() throws -> Int32 {
    try input.fileHandleForWriting.close()
    try readLiveCount()
    process.waitUntilExit()
    return process.terminationStatus
  }

  private func readLiveCount() throws {
    let live = try line()
    guard live.hasPrefix("live "), let count = live.split(separator: " ").last.flatMap({ Int($0) }) else {
      throw Failure("the fixture said \"\(live)\" instead of its live count")
    }
    liveCount = count
  }

  /// The next line the fixture prints (a blocking read: the fixture answers
  /// every batch, and its end of output ends the wait).
  func line() throws -> String {
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let text = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return text
      }
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw Failure("the fixture's output ended") }
      pending += chunk
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
