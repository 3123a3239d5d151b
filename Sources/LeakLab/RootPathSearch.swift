/// Whether and when the app's explanations search the process's memory for a
/// leak's path from a true root (a global, a thread's TLS), beside the cycle
/// and the registered roots it always searches.
///
/// The search snapshots the whole heap: tenths of a second per leak in a
/// debug build. In a test process its answers also depend on what the test
/// harness itself holds (a test's closure kept by a static of the testing
/// library is a real root path), so models in tests leave it off.
///
/// ```swift
/// let app = AppModel(scheduler: LiveScheduler(), rootPathSearch: .inBackground)
/// ```
public enum RootPathSearch: Sendable, Hashable {
  /// Cycles and registered roots only.
  case off
  /// The whole answer when the leak is detected, on the detecting thread
  /// (`leaklab explain`).
  case atDetection
  /// The quick answer when the leak is detected; the memory search on a
  /// low-priority thread, its answer replacing the quick one (the live app).
  case inBackground
}
