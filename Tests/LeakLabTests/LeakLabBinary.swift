import Foundation
import LeakLabTestSupport

/// The `leaklab` executable built next to the test bundle.
enum LeakLabBinary {
  static let path = builtExecutable(named: "leaklab")

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
