import ArgumentParser
import Foundation
import LeakLab
import LeakLabTerminal
import ProcessLeaks
import TextGrid

#if canImport(Glibc)
  import Glibc
#endif

/// `leaklab watch --pid PID` and `leaklab watch -- PROGRAM [ARGS…]`: the
/// terminal app on a running Swift process — its live objects by type and
/// how they change, its leaks, and why an instance is alive. See docs/watch.md.
struct WatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract:
      "The app on a running Swift process: live objects by type, growth since a mark, leaks, why alive.",
    usage: """
      leaklab watch [--period SECONDS] --pid PID
      leaklab watch [--period SECONDS] [--program-output FILE] [--stacks] -- PROGRAM [ARGS…]
      """,
    discussion: """
      Takes a snapshot of the process every few seconds (it is stopped only while its heap is read; \
      the header says how long) and shows its types with their count, change since the mark and \
      recent counts, its leaks grouped as `leaklab leaks` groups them, and the selected type's \
      instances; Enter says why one is alive. A program given after -- is started with its output \
      in a file (--program-output, else one in the temporary directory, removed if empty) and stopped with SIGTERM when \
      the app quits; a process given with --pid runs on. With --stacks, the program runs under the \
      allocation recorder (as with `leaklab leaks --stacks`): the instances pane and the explain view \
      say where the instances were allocated. Needs ptrace and a terminal of at least 80×24.

      The keys (the same table as `?` in the app):
      \(KeyMap.watch.plainTextTable(width: 78))
      """
  )

  @Option(name: .customLong("pid"), help: "Watch this running process.")
  var pid: Int32?

  @Option(help: "Seconds between snapshots at the start: 1, 2, 5 or 10 (`i` changes it).")
  var period = 2

  @Option(help: "Where a started program's standard output and error go.")
  var programOutput: String?

  @Flag(help: "Record allocation stacks (LD_PRELOAD): the line that allocated each type (not with --pid).")
  var stacks = false

  @Argument(parsing: .captureForPassthrough, help: "The program and its arguments, after `--`.")
  var program: [String] = []

  private var command: [String] { program.first == "--" ? Array(program.dropFirst()) : program }

  func validate() throws {
    if let first = program.first, ["-h", "--help"].contains(first) { throw CleanExit.helpRequest(self) }
    if pid == nil && command.isEmpty {
      throw ValidationError("give a program after -- or a process with --pid")
    }
    if pid != nil && !command.isEmpty { throw ValidationError("give either a program or --pid, not both") }
    if pid != nil && stacks { throw ValidationError("--stacks needs a program leaklab starts, not --pid") }
    if !WatchState.periods.contains(period) {
      throw ValidationError("--period must be one of 1, 2, 5, 10 seconds, not \(period)")
    }
  }

  func run() throws {
    CrashReports.makeNonInteractive()
    do throws(ProcessLeaksError) {
      // A process given must exist; then the terminal must do, before a program is started for it.
      var attached: WatchedProcess?
      if let pid { attached = try WatchedProcess.attach(pid: pid) }
      Self.checkTerminal()
      let process: WatchedProcess
      if let attached {
        process = attached
      } else {
        process = try WatchedProcess.launch(command, outputPath: programOutputPath, stacks: stacks)
      }
      watch(process)
    } catch {
      CommandOutput.error(error.description)
      throw ExitCode(2)
    }
  }

  /// Where a started program's output goes: `--program-output`, else a file in the temporary directory.
  private var programOutputPath: String {
    programOutput
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "leaklab-watch-\(URL(fileURLWithPath: command.first ?? "program").lastPathComponent)-\(getpid()).log"
      ).path
  }

  /// Removes the output file leaklab chose when the program wrote nothing
  /// to it: an empty log is nothing to keep in the temporary directory.
  private static func removeIfEmpty(_ path: String) {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 else { return }
    unlink(path)
  }

  /// Exits with one line and status 2 when the app cannot run in this terminal.
  private static func checkTerminal() {
    do throws(TerminalError) {
      try Terminal.preflight(
        environment: ProcessInfo.processInfo.environment, standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
        standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1)
    } catch {
      CommandOutput.error("\(error)")
      CommandOutput.exit(2)
    }
  }

  /// Runs the app on `process` until `q`; a program leaklab started is stopped then.
  private func watch(_ process: WatchedProcess) {
    let failure = MainActor.assumeIsolated { () -> TerminalError? in
      let model = WatchModel(source: process, period: period)
      let app = WatchAppAdapter(model: model)
      do throws(TerminalError) {
        let options = Terminal.Options(
          minimumSize: minimumAppSize, quitKeys: KeyMap.watch.keys(for: .quitKeyPressed))
        try Terminal.run(app, options: options)
        return nil
      } catch {
        return error
      }
    }
    process.stop()
    if programOutput == nil { Self.removeIfEmpty(programOutputPath) }
    if let failure {
      CommandOutput.error("\(failure)")
      CommandOutput.exit(2)
    }
  }
}

/// Connects the watch model to the terminal's run loop: keys in, grids out.
@MainActor
final class WatchAppAdapter: TerminalApp {
  let model: WatchModel

  init(model: WatchModel) {
    self.model = model
  }

  func frame(for size: Size) -> Grid {
    model.resize(to: size)
    return renderWatch(model.state, size: size)
  }

  func handle(_ key: Key) -> LoopDecision {
    model.handle(key)
    return model.state.isQuitRequested ? .quit : .continue
  }

  func tick() -> TickOutcome {
    model.tick() ? .redraw : .unchanged
  }

  func nextTickDelay() -> Duration? {
    model.nextTickDelay()
  }

  func takeTerminalRequests() -> [TerminalRequest] {
    model.takeClipboardRequests().map { .copyToClipboard($0) }
  }
}
