import ArgumentParser
import Foundation
import HeapModel
import ProcessLeaks

#if canImport(Glibc)
  import Glibc
#endif

/// `leaklab heap --pid PID` and `leaklab heap -- PROGRAM [ARGS…]`: the live
/// objects of a Linux program by type, a diff with an earlier census (what
/// grew, and why one new instance is kept), or a timeline of censuses.
/// See docs/heap.md.
struct HeapCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "heap",
    abstract: "The live objects of a program by type; what grew since an earlier census, and why it is kept.",
    usage: """
      leaklab heap [OPTIONS] --pid PID
      leaklab heap [OPTIONS] -- PROGRAM [ARGS…]
      leaklab heap --pid PID --json -o before.json; …; leaklab heap --pid PID --diff-from before.json
      leaklab heap --pid PID --every SECONDS --count K
      """,
    discussion: """
      Counts every live heap block of the process by type (Swift classes, closure contexts, \
      collection storages, tasks; C runtimes' objects; plain malloc memory by size class), while the \
      process is stopped, and says how long it was stopped. With --pid the process runs on unchanged \
      afterwards; with a PROGRAM the census is taken at its exit. Exit status: the program's own when it \
      failed; with --diff-from (or --every), 1 when a type (of a --gate pattern, when given) grew by \
      more than --threshold, else 0; 2 when the census could not be taken. Standard output is the \
      report's: a PROGRAM's own standard output goes to standard error, unless -o writes the report \
      to a file.
      """
  )

  @Option(name: .customLong("pid"), help: "Take the census of this running process.")
  var pid: Int32?

  @Flag(help: "Print the census as JSON (schema: docs/heap-json.md); with -o, a file --diff-from reads.")
  var json = false

  @Option(
    name: [.short, .customLong("output")], help: "Write the report to this file instead of standard output.")
  var output: String?

  @Option(help: "Order types by `bytes` or `count`.")
  var sort: SortOrder = .bytes

  @Option(help: "Show this many types in the text report (JSON has all).")
  var top = 25

  @Option(
    help: ArgumentHelp(
      "Compare with an earlier census written with --json -o: what grew, and why.", valueName: "file"))
  var diffFrom: String?

  @Option(
    help: "Exit with status 1 when a type grew by more than this many instances (--diff-from, --every).")
  var threshold = 0

  @Option(
    help: ArgumentHelp(
      "Exit with status 1 only for growth of types matching this pattern (`*`, `?`; repeatable).",
      valueName: "pattern"))
  var gate: [String] = []

  @Option(help: "Find a root path for at most this many grown types.")
  var paths = CensusRun.defaultPathCount

  @Option(help: ArgumentHelp("Take a census every SECONDS (needs --pid and --count).", valueName: "seconds"))
  var every: Double?

  @Option(help: ArgumentHelp("How many censuses --every takes.", valueName: "K"))
  var count: Int?

  @Flag(
    help: "Record allocation stacks (LD_PRELOAD): each grown type gets its top allocation site (--diff-from)."
  )
  var stacks = false

  @Argument(parsing: .captureForPassthrough, help: "The program and its arguments, after `--`.")
  var program: [String] = []

  enum SortOrder: String, ExpressibleByArgument, CaseIterable {
    case bytes, count
    var order: HeapCensus.Order { self == .bytes ? .bytes : .count }
  }

  var command: [String] { program.first == "--" ? Array(program.dropFirst()) : program }

  func validate() throws {
    if let first = program.first, ["-h", "--help"].contains(first) { throw CleanExit.helpRequest(self) }
    if pid == nil && command.isEmpty {
      throw ValidationError("give a program after -- or a process with --pid")
    }
    if pid != nil && !command.isEmpty { throw ValidationError("give either a program or --pid, not both") }
    if pid != nil && stacks { throw ValidationError("--stacks needs a program leaklab starts, not --pid") }
    if top < 1 { throw ValidationError("--top needs a positive count") }
    if threshold < 0 { throw ValidationError("--threshold cannot be negative") }
    if paths < 0 { throw ValidationError("--paths cannot be negative") }
    if (every == nil) != (count == nil) { throw ValidationError("--every and --count go together") }
    if let every {
      guard pid != nil else {
        throw ValidationError("--every needs --pid: start the program, then pass its process id")
      }
      guard every > 0, every <= 86_400 else {
        throw ValidationError("--every needs a number of seconds above 0")
      }
      guard let count, count >= 2, count <= 10_000 else { throw ValidationError("--count needs 2 or more") }
      if diffFrom != nil { throw ValidationError("--every and --diff-from cannot be combined") }
    }
  }

  func run() throws {
    if every != nil, let pid, let count {
      try runTimeline(pid: pid, count: count)
      return
    }
    let earlier = diffFrom.map(Self.readCensus)
    let earlierCensus: HeapCensus?
    do {
      earlierCensus = try earlier?.census
    } catch {
      Self.fail("\(diffFrom ?? ""): \(error.description)")
    }
    let taken: TakenCensus
    do {
      if let pid {
        taken = try CensusRun.attached(pid: pid, comparingWith: earlierCensus, pathCount: paths)
      } else {
        let (process, census) = try CensusRun.launched(
          command, comparingWith: earlierCensus, pathCount: paths, stacks: stacks,
          output: output == nil ? .standardError : .inherited)
        guard let census else {
          let ending = process.ending ?? .exited(2)
          Self.warn("\(process.executable) \(ending) before it could exit: no census")
          throw ExitCode(ending.shellStatus)
        }
        taken = census
      }
    } catch let error as ProcessLeaksError {
      Self.fail(error.description)
    }
    let text: String
    if json {
      text = String(
        decoding: CensusDocument(taken, earlier: earlier, threshold: threshold, gate: gate).encoded(),
        as: UTF8.self)
    } else if let earlier {
      text = CensusText.diff(taken, earlier: earlier, threshold: threshold, gate: gate, top: top).joined(
        separator: "\n")
    } else {
      text = CensusText.census(taken, order: sort.order, top: top).joined(separator: "\n")
    }
    write(text + "\n")
    if let ending = taken.process.ending, ending.shellStatus != 0 { throw ExitCode(ending.shellStatus) }
    let grew =
      taken.comparison.map { !$0.diff.grown(pastThreshold: threshold, matching: gate).isEmpty } ?? false
    throw ExitCode(grew ? 1 : 0)
  }

  /// K censuses of `pid`, one every `--every` seconds, then the timeline.
  private func runTimeline(pid: Int32, count: Int) throws {
    var censuses: [TakenCensus] = []
    let clock = ContinuousClock()
    let start = clock.now
    for index in 0..<count {
      if index > 0 {
        // Each census starts `every` seconds after the first one's start, however long the last took.
        let due = start.advanced(by: .milliseconds(Int64((every ?? 1) * 1000 * Double(index))))
        let wait = due - clock.now
        if wait > .zero {
          Thread.sleep(
            forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
        }
      }
      do {
        censuses.append(try CensusRun.attached(pid: pid, pathCount: 0))
      } catch {
        Self.fail(error.description)
      }
    }
    let timeline = CensusTimeline(censuses, order: sort.order)
    let process = censuses[0].process
    let text =
      json
      ? String(decoding: TimelineDocument(timeline, process: process).encoded(), as: UTF8.self)
      : CensusText.timeline(timeline, process: process, every: every ?? 1, top: top).joined(separator: "\n")
    write(text + "\n")
    let grew = !timeline.grown(pastThreshold: threshold, matching: gate).isEmpty
    throw ExitCode(grew ? 1 : 0)
  }

  static func readCensus(_ path: String) -> CensusDocument {
    guard let data = FileManager.default.contents(atPath: path) else {
      fail("\(path): cannot read the census file")
    }
    do {
      return try CensusDocument.decode(data)
    } catch {
      fail("\(path): \(error.description)")
    }
  }

  /// The report, to stdout through ``CommandOutput`` or to the `--output` file.
  private func write(_ text: String) {
    guard let output else {
      CommandOutput.write(text)
      return
    }
    guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
      Self.fail("\(output): cannot write the report")
    }
  }

  static func warn(_ message: String) { CommandOutput.error(message) }

  static func fail(_ message: String) -> Never {
    warn(message)
    CommandOutput.exit(2)
  }
}
