import Foundation

/// The `leaklab` executable built next to the test bundle.
enum LeakLabBinary {
  static let path: String = {
    if let path = ProcessInfo.processInfo.environment["LEAKLAB_BINARY"] { return path }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    // On platforms with bundles the test binary sits inside `X.xctest/Contents/MacOS`.
    while directory.path != "/"
      && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("leaklab").path)
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("leaklab").path
  }()

  /// Runs `leaklab` (or `executable`) with `arguments` outside a terminal;
  /// returns its status and output.
  static func run(
    _ arguments: [String], executable: String = path
  ) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
    )
  }
}
