import Foundation
import HeapModel

#if canImport(Glibc)
  import Glibc
#endif

/// A program started under ptrace for `leaklab watch`, run by a thread of
/// its own: it lets the program run in slices, stops it between two slices
/// for the work asked of it (``perform(_:)``), and holds it at its exit for
/// one last snapshot — the leaks at exit — before letting it finish.
///
/// ptrace answers only the thread that started the program, so every call
/// to the process happens on that thread; other threads hand it work and wait.
///
/// ```swift
/// let tracer = try ProgramTracer(["/usr/local/bin/server"], output: "/tmp/server.log") { process in
///   try WatchedProcess.read(process)
/// }
/// let census = try tracer.perform { process in try process.heapModel().census() }
/// ```
final class ProgramTracer: @unchecked Sendable {
  /// The program's pid.
  private(set) var pid: Int32 = 0
  private let lock = NSLock()
  private var pending: [@Sendable (TracedProcess?) -> Void] = []
  private var ended: WatchedProcess.Ending?
  private var lastSnapshot: WatchSnapshot?
  private var isStopping = false
  /// Left when the tracer's thread ends (the program has ended).
  private let finished = DispatchGroup()
  /// Kept until the tracer goes: freeing it puts back the SIGINT handler
  /// that was there at the launch, which would undo the terminal's.
  private var process: TracedProcess?
  /// When the program was last stopped for work (read by that work, on the tracer's thread).
  private(set) var stoppedAt = ContinuousClock.now

  /// Starts `command` on a new thread with its output appended to `output`
  /// (with `stacks`, under the allocation recorder); `atExit` reads it
  /// once, held at its exit.
  init(
    _ command: [String], output: String, stacks: Bool = false,
    atExit: @escaping @Sendable (TracedProcess) throws(ProcessLeaksError) -> WatchSnapshot
  ) throws(ProcessLeaksError) {
    let started = DispatchSemaphore(value: 0)
    finished.enter()
    nonisolated(unsafe) var failure: ProcessLeaksError?
    let thread = Thread { [self] in
      let process: TracedProcess
      do throws(ProcessLeaksError) {
        process = try TracedProcess.launch(command, stacks: stacks, output: .file(output))
      } catch {
        failure = error
        finished.leave()
        started.signal()
        return
      }
      pid = process.pid
      self.process = process
      started.signal()
      run(process, atExit: atExit)
    }
    thread.name = "leaklab tracer"
    thread.start()
    started.wait()
    if let failure { throw failure }
  }

  /// How the program ended, or nil while it runs.
  var ending: WatchedProcess.Ending? { lock.withLock { ended } }

  /// The snapshot taken at its exit, once it has ended there.
  var exitSnapshot: WatchSnapshot? { lock.withLock { lastSnapshot } }

  /// What ``perform(_:)`` throws when the program has ended or is ending.
  static let endedError = ProcessLeaksError.system("the program is ending", detail: "nothing to read")

  /// Runs `work` on the tracer's thread while every thread of the program is
  /// stopped; throws ``endedError`` when the program has ended (or ends first).
  func perform<Result: Sendable>(
    _ work: @escaping @Sendable (TracedProcess) throws(ProcessLeaksError) -> Result
  )
    throws(ProcessLeaksError) -> Result
  {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: Swift.Result<Result, ProcessLeaksError> = .failure(Self.endedError)
    let accepted = lock.withLock {
      guard ended == nil else { return false }
      pending.append { process in
        if let process {
          do throws(ProcessLeaksError) {
            outcome = .success(try work(process))
          } catch {
            outcome = .failure(error)
          }
        }
        done.signal()
      }
      return true
    }
    guard accepted else { throw Self.endedError }
    done.wait()
    return try outcome.get()
  }

  /// Waits at most `timeout` for the program's end to be known (read at its exit, finished).
  func waitUntilEnded(timeout: DispatchTime) {
    _ = finished.wait(timeout: timeout)
  }

  /// Asks the program to end (SIGTERM) and waits at most `timeout` for it;
  /// nothing is read at its exit.
  func stop(timeout: DispatchTime = .now() + 3) {
    let running = lock.withLock {
      isStopping = true
      return ended == nil
    }
    guard running else { return }
    kill(pid, SIGTERM)
    _ = finished.wait(timeout: timeout)
  }

  // MARK: The tracer's thread

  private func run(
    _ process: TracedProcess, atExit: @Sendable (TracedProcess) throws(ProcessLeaksError) -> WatchSnapshot
  ) {
    var ending: WatchedProcess.Ending
    loop: while true {
      let slice: TracedProcess.SliceOutcome
      do {
        slice = try process.run(forMilliseconds: 20)
      } catch {
        ending = .gone
        break loop
      }
      switch slice {
      case .running:
        let work = lock.withLock {
          defer { pending = [] }
          return pending
        }
        guard !work.isEmpty else { continue }
        stoppedAt = ContinuousClock.now
        let stopped = process.stopAll()
        for item in work { item(stopped ? process : nil) }
        if stopped { process.resumeAll() }
      case .ended(.atExit(let status)):
        if !lock.withLock({ isStopping }), let snapshot = try? atExit(process) {
          lock.withLock { lastSnapshot = snapshot }
        }
        let finish = try? process.finish()
        ending = .ended(finish ?? .exited(status))
        break loop
      case .ended(.ended(let how)):
        ending = .ended(how)
        break loop
      }
    }
    let work = lock.withLock {
      ended = ending
      defer { pending = [] }
      return pending
    }
    for item in work { item(nil) }
    finished.leave()
  }
}
