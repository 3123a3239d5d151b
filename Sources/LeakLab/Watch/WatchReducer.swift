import Foundation
import HeapModel
import ProcessLeaks
import TextGrid

/// What happened to `leaklab watch`: a key (as the key map names it), or
/// an answer from the process.
public enum WatchAction: Sendable {
  /// A bound key's intent (``KeyMap/watch``).
  case keyPressed(AppAction)
  /// A key typed while the filter is edited: text, Backspace, Enter (keep) or Esc (clear).
  case filterTyped(Key)
  /// A snapshot arrived.
  case snapshotTaken(WatchSnapshot)
  /// A snapshot could not be taken: why, in one line.
  case snapshotFailed(String)
  /// The process ended ("exited with status 3"), read at its exit when it could be (a program watch started).
  case processEnded(String, atExit: WatchSnapshot?)
  /// The explain view's answer (nil: no such instance any more) with the
  /// instance's allocation site when it was recorded, or why there is none.
  case explained(HeapModel.WhyAlive?, site: AllocationSite? = nil, failure: String?)
  /// The report was written to `path`, or could not be (`error`).
  case reportWritten(path: String, error: String?)
  /// The terminal has a new size.
  case resized(Size)
}

/// What the reducer asks the model to do.
public enum WatchEffect: Sendable, Equatable {
  /// Read the process again to say why `subject` is alive.
  case explain(WatchedProcess.Subject)
  /// Put this text on the clipboard.
  case copy(String)
  /// Write the report.
  case writeReport
}

/// `leaklab watch`'s logic as a pure function, testable with made-up snapshots.
///
/// ```swift
/// var state = WatchState(process: .init(name: "Server", pid: 42, isLaunched: false))
/// _ = WatchReducer.reduce(&state, .snapshotTaken(snapshot))
/// _ = WatchReducer.reduce(&state, .keyPressed(.markKeyPressed))
/// let effects = WatchReducer.reduce(&state, .keyPressed(.openKeyPressed))  // [.explain(.type(…))]
/// ```
public enum WatchReducer {
  public static func reduce(_ state: inout WatchState, _ action: WatchAction) -> [WatchEffect] {
    switch action {
    case .keyPressed(let key):
      state.notice = nil
      return press(&state, key)
    case .filterTyped(let key):
      editFilter(&state, key)
    case .snapshotTaken(let snapshot):
      take(&state, snapshot)
    case .snapshotFailed(let reason):
      state.isTakingSnapshot = false
      state.failure = reason
    case .processEnded(let ending, let atExit):
      if let atExit {
        take(&state, atExit)
        state.isAtExit = true
      }
      state.isTakingSnapshot = false
      state.ending = ending
    case .explained(let why, let site, let failure):
      guard state.explanation != nil else { return [] }
      state.explanation?.why = why
      state.explanation?.site = why == nil ? nil : site
      state.explanation?.failure =
        failure ?? (why == nil ? "No instance of it is alive any more, or nothing keeps it: try again" : nil)
    case .reportWritten(let path, let error):
      state.notice = error.map { "Could not write the report to \(path): \($0)" } ?? "Report: \(path)"
    case .resized(let size):
      state.screenSize = size
    }
    return []
  }

  // MARK: Snapshots

  private static func take(_ state: inout WatchState, _ snapshot: WatchSnapshot) {
    state.isTakingSnapshot = false
    state.failure = nil
    state.latest = snapshot
    state.snapshotCount += 1
    var history: [String: [Int]] = [:]
    for entry in snapshot.census.entries {
      history[entry.key] = Array(
        ((state.history[entry.key] ?? []) + [entry.count]).suffix(WatchState.historyLength))
    }
    state.history = history
    if state.mark == nil {
      state.mark = snapshot.census
      state.markSnapshot = state.snapshotCount
    }
    keepSelectionShown(&state)
    state.selectedLeak = min(state.selectedLeak, max(0, snapshot.leaks.count - 1))
  }

  // MARK: Keys

  private static func press(_ state: inout WatchState, _ key: AppAction) -> [WatchEffect] {
    if state.isHelpVisible {
      switch key {
      case .moveUpPressed: state.helpScroll.y = max(0, state.helpScroll.y - 1)
      case .moveDownPressed: state.helpScroll.y += 1
      case .quitKeyPressed: state.isQuitRequested = true
      default: state.isHelpVisible = false
      }
      return []
    }
    if state.explanation != nil, let effects = pressInExplainView(&state, key) { return effects }
    switch key {
    case .moveUpPressed: move(&state, by: -1)
    case .moveDownPressed: move(&state, by: 1)
    case .scrollKeyPressed(let step):
      switch step {
      case .pageUp: move(&state, by: -10)
      case .pageDown: move(&state, by: 10)
      case .top: move(&state, by: -Int.max / 2)
      case .bottom: move(&state, by: Int.max / 2)
      default: break
      }
    case .focusNextPressed, .focusPreviousPressed:
      let panes = WatchState.Pane.allCases
      let step = key == .focusNextPressed ? 1 : panes.count - 1
      state.focus = panes[(panes.firstIndex(of: state.focus)! + step) % panes.count]
    case .openKeyPressed:
      return explain(&state)
    case .closeKeyPressed:
      if !state.filter.isEmpty {
        state.filter = ""
        state.notice = "Filter cleared"
      }
    case .markKeyPressed:
      guard let latest = state.latest else {
        state.notice = "No census yet: the mark is set with the first"
        return []
      }
      state.mark = latest.census
      state.markSnapshot = state.snapshotCount
      state.notice = "Mark set at snapshot \(state.snapshotCount): changes count from here"
    case .sortKeyPressed:
      state.order = state.order.next
      state.notice = "Sorted by \(state.order == .change ? "change since the mark" : state.order.rawValue)"
    case .filterKeyPressed:
      state.isFiltering = true
      state.focus = .types
    case .pauseKeyPressed:
      state.isPaused.toggle()
      state.notice = state.isPaused ? "Paused: p resumes the snapshots" : "Resumed"
    case .periodKeyPressed:
      let periods = WatchState.periods
      state.period = periods[((periods.firstIndex(of: state.period) ?? 0) + 1) % periods.count]
      state.notice = "A snapshot every \(state.period) s"
    case .copyKeyPressed:
      state.notice = "Enter shows why the selection is alive; y copies its path there"
    case .reportKeyPressed:
      return [.writeReport]
    case .helpKeyPressed:
      state.isHelpVisible = true
      state.helpScroll = .top
    case .quitKeyPressed:
      state.isQuitRequested = true
    default:
      break
    }
    return []
  }

  /// Keys in the explain view: they scroll, copy, close; nil for the keys that act as elsewhere.
  private static func pressInExplainView(_ state: inout WatchState, _ key: AppAction) -> [WatchEffect]? {
    switch key {
    case .moveUpPressed: state.explainScroll.y = max(0, state.explainScroll.y - 1)
    case .moveDownPressed: state.explainScroll.y += 1
    case .scrollKeyPressed(let step):
      switch step {
      case .pageUp: state.explainScroll.y = max(0, state.explainScroll.y - 10)
      case .pageDown: state.explainScroll.y += 10
      case .top: state.explainScroll.y = 0
      case .left: state.explainScroll.x = max(0, state.explainScroll.x - 8)
      case .right: state.explainScroll.x += 8
      default: break
      }
    case .copyKeyPressed:
      guard let why = state.explanation?.why else {
        state.notice = "Nothing to copy yet"
        return []
      }
      state.notice = "Copied the path to the clipboard"
      return [.copy(why.text)]
    case .closeKeyPressed, .openKeyPressed:
      state.explanation = nil
    case .quitKeyPressed, .helpKeyPressed, .reportKeyPressed, .markKeyPressed, .pauseKeyPressed,
      .periodKeyPressed:
      return nil
    default:
      break
    }
    return []
  }

  private static func move(_ state: inout WatchState, by step: Int) {
    switch state.focus {
    case .types:
      let rows = state.rows
      guard !rows.isEmpty else { return }
      let index = min(rows.count - 1, max(0, state.selectedRow + step))
      state.selectedKey = rows[index].entry.key
      state.instancesScroll = .top
    case .leaks:
      state.selectedLeak = min(max(0, state.leaks.count - 1), max(0, state.selectedLeak + step))
    case .instances:
      state.instancesScroll.y = max(0, state.instancesScroll.y + max(-1000, min(1000, step)))
    }
  }

  private static func explain(_ state: inout WatchState) -> [WatchEffect] {
    guard state.ending == nil else {
      state.notice = "The process has \(state.ending!): nothing to read"
      return []
    }
    if state.focus == .leaks {
      guard state.leaks.indices.contains(state.selectedLeak) else {
        state.notice = "No leak to explain"
        return []
      }
      let kind = state.leaks[state.selectedLeak]
      state.explanation = .init(title: "Leak: one of \(kind.count) × \(kind.signature)")
      state.explainScroll = .top
      return [.explain(.leak(kindID: kind.id))]
    }
    guard let row = state.selected else {
      state.notice = "No type to explain yet"
      return []
    }
    let marked = state.mark?.entry(key: row.entry.key)
    let since = marked.flatMap { $0.instances.count == $0.count ? $0.instances : nil }
    let fresh = since.map { row.entry.instances.countNotIn($0) } ?? row.entry.count
    let which =
      fresh > 0
      ? "the newest of \(fresh) new since the mark (\(row.entry.count) live)"
      : "the newest of \(row.entry.count) live (none new since the mark)"
    state.explanation = .init(title: "\(row.entry.name): \(which)")
    state.explainScroll = .top
    return [.explain(.type(key: row.entry.key, since: fresh > 0 ? since : nil))]
  }

  private static func editFilter(_ state: inout WatchState, _ key: Key) {
    switch key {
    case .enter:
      state.isFiltering = false
      state.notice = state.filter.isEmpty ? nil : "Filter kept: Esc clears it"
    case .escape:
      state.isFiltering = false
      state.filter = ""
    case .backspace:
      if !state.filter.isEmpty { state.filter.removeLast() }
    case .character(let character):
      state.filter.append(character)
    default:
      return
    }
    keepSelectionShown(&state)
  }

  /// Selects a shown type when the selected one is not shown: the program's
  /// own first (what its developer came to see), else the first.
  private static func keepSelectionShown(_ state: inout WatchState) {
    let rows = state.rows
    guard !rows.contains(where: { $0.entry.key == state.selectedKey }) else { return }
    state.selectedKey = (rows.first { $0.entry.isProgramType } ?? rows.first)?.entry.key
  }
}
