import Foundation
import LeakLabLocking
import LeakLabTestSupport

/// The `leaklab` executable built next to the test bundle.
enum LeakLabBinary {
  static let path = builtExecutable(named: "leaklab")

  /// Whether this build has `leaklab lint`: instrumented builds leave the
  /// lint and swift-syntax out (see Package.swift).
  static var hasLint: Bool {
    #if LEAKLAB_WITHOUT_LINT
      false
    #else
      true
    #endif
  }

  /// Runs `leaklab` (or `executable`) with `arguments` outside a terminal,
  /// `environment` added to this process's; returns its status (the signal's
  /// number when one killed it) and output.
  static func run(
    _ arguments: [String], executable: String = path, environment: [String: String] = [:]
  ) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let (out, err) = readBoth(output, error)
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
    )
  }

  /// Reads both pipes to their end at once: a program that fills one while
  /// the test waits on the other (64 kB of errors, say) would otherwise never
  /// finish, and neither would the test.
  static func readBoth(_ output: Pipe?, _ error: Pipe?) -> (output: Data, error: Data) {
    let errorData = Locked(Data())
    let reader = DispatchGroup()
    if let handle = error?.fileHandleForReading {
      DispatchQueue.global().async(group: reader) {
        let data = handle.readDataToEndOfFile()
        errorData.withLock { $0 = data }
      }
    }
    let out = output?.fileHandleForReading.readDataToEndOfFile() ?? Data()
    reader.wait()
    return (out, errorData.withLock { $0 })
  }
}
