import Dispatch
import Foundation
import HeapModel
import ProcessLeaks
import TextGrid

/// `leaklab watch`'s model: the state, the reducer, and the work it asks
/// for, done off the main thread — snapshots every ``WatchState/period``
/// seconds and explanations on one background queue (the process is stopped
/// only meanwhile), their answers sent back as actions on the main queue.
/// The terminal never waits for the process.
///
/// ```swift
/// let model = WatchModel(source: try WatchedProcess.attach(pid: pid))
/// model.handle(.character("m"))
/// _ = model.tick()              // starts a snapshot when one is due
/// renderWatch(model.state, size: Size(width: 80, height: 24))
/// ```
@MainActor
public final class WatchModel {
  public private(set) var state: WatchState
  private let source: any WatchSource
  private let queue = DispatchQueue(label: "leaklab.watch", qos: .utility)
  private let clock = ContinuousClock()
  private var nextSnapshot: ContinuousClock.Instant
  private var isBusy = false
  private var changed = true
  private var clipboard: [String] = []
  /// Where `r` writes (the current directory unless told).
  private let reportDirectory: URL

  /// A model that takes a snapshot of `source` every `period` seconds
  /// (one of ``WatchState/periods``), the first at once; `r` writes into `reportDirectory`.
  public init(source: any WatchSource, period: Int = 2, reportDirectory: URL? = nil) {
    self.source = source
    state = WatchState(process: source.process)
    state.period = period
    // A program just started is still loading: its first snapshot waits a period.
    nextSnapshot = source.process.isLaunched ? clock.now + .seconds(period) : clock.now
    self.reportDirectory =
      reportDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  }

  /// Sends the action `key` is bound to (while the filter is typed, the key itself).
  public func handle(_ key: Key) {
    if key == .resize { return }
    if state.isFiltering {
      send(.filterTyped(key))
    } else if let action = state.keyMap.action(for: key) {
      send(.keyPressed(action))
    }
  }

  /// Applies `action` and performs the effects it asks for.
  public func send(_ action: WatchAction) {
    let wasPaused = state.isPaused
    let period = state.period
    let effects = WatchReducer.reduce(&state, action)
    changed = true
    if state.isPaused != wasPaused || state.period != period { nextSnapshot = clock.now }
    for effect in effects { perform(effect) }
  }

  /// Starts a snapshot when one is due; whether the screen changed since the last call.
  public func tick() -> Bool {
    if !isBusy, clock.now >= nextSnapshot, state.ending == nil {
      nextSnapshot = clock.now + .seconds(state.period)
      state.isPaused ? checkEnding() : takeSnapshot()
    }
    defer { changed = false }
    return changed
  }

  /// How long the loop may sleep before the next snapshot is due.
  public func nextTickDelay() -> Duration? {
    guard state.ending == nil, !isBusy else { return nil }
    return max(.zero, nextSnapshot - clock.now)
  }

  /// The texts `y` asked to copy, once each.
  public func takeClipboardRequests() -> [String] {
    defer { clipboard = [] }
    return clipboard
  }

  /// Records the terminal's size.
  public func resize(to size: Size) {
    if size != state.screenSize { state.screenSize = size }
  }

  // MARK: Work off the main thread

  private func takeSnapshot() {
    isBusy = true
    state.isTakingSnapshot = true
    queue.async { [source] in
      if let ending = source.endingDescription() {
        Self.deliver(.processEnded(ending, atExit: source.exitSnapshot), to: self)
        return
      }
      do {
        let snapshot = try source.snapshot()
        Self.deliver(.snapshotTaken(snapshot), to: self)
      } catch {
        // A process that ended meanwhile is not a failure.
        let action: WatchAction =
          source.endingDescription().map { .processEnded($0, atExit: source.exitSnapshot) }
          ?? .snapshotFailed("\(error)")
        Self.deliver(action, to: self)
      }
    }
  }

  private func checkEnding() {
    isBusy = true
    queue.async { [source] in
      guard let ending = source.endingDescription() else {
        DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.isBusy = false } }
        return
      }
      Self.deliver(.processEnded(ending, atExit: source.exitSnapshot), to: self)
    }
  }

  private nonisolated static func deliver(_ action: WatchAction, to model: WatchModel?) {
    DispatchQueue.main.async { [weak model] in
      MainActor.assumeIsolated {
        model?.isBusy = false
        model?.send(action)
      }
    }
  }

  private func perform(_ effect: WatchEffect) {
    switch effect {
    case .copy(let text):
      clipboard.append(text)
    case .writeReport:
      let name = WatchReport.fileName(state)
      let file = reportDirectory.appendingPathComponent(name)
      do {
        try WatchReport(state).encoded().write(to: file)
        send(.reportWritten(path: "./\(name)", error: nil))
      } catch {
        send(.reportWritten(path: file.path, error: "\(error.localizedDescription)"))
      }
    case .explain(let subject):
      queue.async { [source, weak self] in
        let action: WatchAction
        do {
          let answer = try source.explain(subject)
          action = .explained(answer?.why, site: answer?.site, failure: nil)
        } catch {
          action = .explained(nil, failure: "\(error)")
        }
        DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.send(action) } }
      }
    }
  }
}
