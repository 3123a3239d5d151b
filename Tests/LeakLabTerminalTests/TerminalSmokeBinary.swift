import Foundation

/// The `TerminalSmoke` executable built next to the test bundle.
enum TerminalSmokeBinary {
  static let path: String = {
    if let path = ProcessInfo.processInfo.environment["LEAKLAB_TERMINAL_SMOKE"] { return path }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    // On platforms with bundles the test binary sits inside `X.xctest/Contents/MacOS`.
    while directory.path != "/"
      && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("TerminalSmoke").path)
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("TerminalSmoke").path
  }()
}
