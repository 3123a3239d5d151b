import Foundation
import HeapModel
import ProcessLeaks
import TextGrid

/// Everything `leaklab watch` shows, as a value: the process, the censuses
/// seen so far (the newest in full, each type's recent counts), the mark,
/// the leaks, and what the user has on screen. ``WatchReducer`` changes it;
/// ``renderWatch(_:size:)`` draws it.
///
/// ```swift
/// var state = WatchState(process: .init(name: "Server", pid: 42, isLaunched: false))
/// _ = WatchReducer.reduce(&state, .snapshotTaken(first))
/// _ = WatchReducer.reduce(&state, .snapshotTaken(second))
/// state.rows.first?.sinceMark   // +200
/// ```
public struct WatchState: Sendable {
  /// The watched process as the header names it.
  public struct Process: Sendable, Hashable {
    public var name: String
    public var pid: Int32
    /// Whether `leaklab watch` started it.
    public var isLaunched: Bool
    /// Where a started program's output goes.
    public var outputPath: String?
    /// Whether it runs under the allocation recorder (`--stacks`).
    public var recordsStacks: Bool

    public init(
      name: String, pid: Int32, isLaunched: Bool, outputPath: String? = nil, recordsStacks: Bool = false
    ) {
      self.name = name
      self.pid = pid
      self.isLaunched = isLaunched
      self.outputPath = outputPath
      self.recordsStacks = recordsStacks
    }
  }

  /// How the types are sorted (`s` cycles).
  public enum Order: String, Sendable, CaseIterable {
    case bytes
    case count
    /// The change since the mark, the largest growth first.
    case change

    var next: Order { Self.allCases[(Self.allCases.firstIndex(of: self)! + 1) % Self.allCases.count] }
  }

  /// The panes that take ↑↓ (Tab moves between them).
  public enum Pane: String, Sendable, CaseIterable {
    case types = "Types"
    case leaks = "Leaks"
    case instances = "Instances"
  }

  /// What the explain view shows.
  public struct Explanation: Sendable, Hashable {
    /// `CachedResponse: the newest of 250, new since the mark`.
    public var title: String
    /// Nil while the process is being read.
    public var why: HeapModel.WhyAlive?
    /// Where the instance was allocated (`--stacks`).
    public var site: AllocationSite?
    /// Why there is no answer (the process is gone, no such instance any more).
    public var failure: String?
  }

  /// One type's row in the types pane.
  public struct Row: Sendable, Hashable {
    public var entry: HeapCensus.Entry
    /// The change in live instances since the mark.
    public var sinceMark: Int
    /// Its counts in the recent censuses, oldest first.
    public var counts: [Int]
  }

  public var process: Process
  public var keyMap: KeyMap = .watch
  /// The newest snapshot.
  public var latest: WatchSnapshot?
  /// How many snapshots were taken.
  public var snapshotCount = 0
  /// Each type's counts in the last ``historyLength`` snapshots, oldest first (by census key).
  public var history: [String: [Int]] = [:]
  /// How many counts a type's chart shows.
  public static let historyLength = 12
  /// The census changes are counted from: the first one, until `m` sets another.
  public var mark: HeapCensus?
  /// The number of the snapshot the mark was set at (1 for the first).
  public var markSnapshot = 0
  public var order: Order = .bytes
  public var filter = ""
  public var isFiltering = false
  public var focus: Pane = .types
  /// The selected type, by census key.
  public var selectedKey: String?
  public var selectedLeak = 0
  public var instancesScroll = ScrollPosition.top
  public var isPaused = false
  /// Seconds between snapshots (`i` cycles through ``periods``).
  public var period = 2
  public static let periods = [1, 2, 5, 10]
  /// How the process ended, once it has: "exited with status 3".
  public var ending: String?
  /// Whether the newest snapshot was taken at the program's exit: its leaks are the leaks at exit.
  public var isAtExit = false
  /// The last snapshot's failure, in one line (cleared by the next success).
  public var failure: String?
  /// Whether a snapshot is being taken now.
  public var isTakingSnapshot = false
  public var explanation: Explanation?
  public var explainScroll = ScrollPosition.top
  public var isHelpVisible = false
  public var helpScroll = ScrollPosition.top
  public var notice: String?
  public var isQuitRequested = false
  public var screenSize = Size(width: 80, height: 24)

  public init(process: Process) {
    self.process = process
  }

  /// The rows of the types pane: the newest census's types that match the
  /// filter, in ``order``.
  public var rows: [Row] {
    guard let census = latest?.census else { return [] }
    let needle = filter.lowercased()
    var rows = census.entries.filter { entry in
      needle.isEmpty || entry.name.lowercased().contains(needle)
        || entry.qualifiedName?.lowercased().contains(needle) == true
    }.map { entry in
      Row(
        entry: entry, sinceMark: entry.count - (mark?.entry(key: entry.key)?.count ?? 0),
        counts: history[entry.key] ?? [entry.count])
    }
    rows.sort { left, right in
      switch order {
      case .bytes where left.entry.bytes != right.entry.bytes: return left.entry.bytes > right.entry.bytes
      case .count where left.entry.count != right.entry.count: return left.entry.count > right.entry.count
      case .change where left.sinceMark != right.sinceMark: return left.sinceMark > right.sinceMark
      default:
        if left.entry.isProgramType != right.entry.isProgramType { return left.entry.isProgramType }
        return (left.entry.name, left.entry.key) < (right.entry.name, right.entry.key)
      }
    }
    return rows
  }

  /// The index of the selected row in ``rows`` (the first when the selected type is not shown).
  public var selectedRow: Int {
    rows.firstIndex { $0.entry.key == selectedKey } ?? 0
  }

  /// The selected type's row.
  public var selected: Row? {
    let rows = rows
    return rows.isEmpty ? nil : rows[rows.firstIndex { $0.entry.key == selectedKey } ?? 0]
  }

  /// The leaks of the newest snapshot.
  public var leaks: [LeakKind] { latest?.leaks ?? [] }

  /// Whether the snapshots go on: not paused, the process still there.
  public var isWatching: Bool { !isPaused && ending == nil }

  /// What the keys act on, for the status bar.
  public var keyContext: KeyContext {
    if isHelpVisible { return .help }
    if isFiltering { return .filtering }
    if explanation != nil { return .explain }
    return .pane
  }
}
