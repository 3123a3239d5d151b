import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps Swift's crash reporter from waiting for a key after a crash.
///
/// In a terminal the runtime's backtracer is interactive by default: after a
/// crash it offers to debug and waits up to 30 s for a key, with the process
/// still alive. A full-screen app restores the terminal first, so the user sees
/// a frozen shell. The runtime reads `SWIFT_BACKTRACE` once, when it loads, so
/// ``makeNonInteractive()`` adds `interactive=no` to it and executes the
/// program again; the backtrace is still printed, and the process exits at once.
///
/// ```swift
/// CrashReports.makeNonInteractive()  // first thing, before the terminal is set up
/// try Terminal.run(app)
/// ```
public enum CrashReports {
  /// The setting added to `SWIFT_BACKTRACE`.
  public static let setting = "interactive=no"

  /// Restarts the program with a non-interactive crash reporter, unless
  /// `SWIFT_BACKTRACE` already chooses (an `interactive=` or `enable=` key).
  /// Returns only when no restart is needed or it failed.
  public static func makeNonInteractive() {
    // Only a terminal makes the reporter interactive.
    guard isatty(STDIN_FILENO) == 1 else { return }
    let current = ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] ?? ""
    guard let value = extended(current) else { return }
    setenv("SWIFT_BACKTRACE", value, 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // The restart failed: carry on; a crash may then wait for a key.
    setenv("SWIFT_BACKTRACE", current, 1)
  }

  /// `current` with ``setting`` added, or nil when it already says whether to
  /// interact (or to report at all).
  static func extended(_ current: String) -> String? {
    let keys = current.split(separator: ",").map { $0.split(separator: "=").first.map(String.init) ?? "" }
    guard !keys.contains("interactive"), !keys.contains("enable") else { return nil }
    return current.isEmpty ? setting : current + "," + setting
  }
}
