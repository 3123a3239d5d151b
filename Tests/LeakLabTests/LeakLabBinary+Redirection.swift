import Foundation

extension LeakLabBinary {
  /// Where one of `leaklab`'s outputs goes in ``run(_:stdout:stderr:)``.
  enum Destination {
    /// A pipe the test reads (the default).
    case captured
    /// A file or device opened for writing (`/dev/full`: every write fails).
    case file(String)
    /// Not open at all.
    case closed
    /// A pipe whose reading end was closed before the program started.
    case brokenPipe
  }

  /// Runs `leaklab` with its stdout and stderr sent where asked; returns the
  /// status, whether a signal ended it, and what it wrote to captured outputs.
  ///
  /// A program still running after `timeout` is killed (a hang is a failure,
  /// not a stuck test run).
  static func run(
    _ arguments: [String], stdout: Destination = .captured, stderr: Destination = .captured,
    timeout: Duration = .seconds(60)
  ) throws -> (status: Int32, signalled: Bool, output: String, error: String) {
    let process = Process()
    var closing: [String] = []
    func attach(_ destination: Destination, descriptor: Int) throws -> Pipe? {
      let handle: Any?
      var captured: Pipe?
      switch destination {
      case .captured:
        captured = Pipe()
        handle = captured
      case .file(let path): handle = FileHandle(forWritingAtPath: path)
      case .closed:
        closing.append("\(descriptor)>&-")
        handle = nil
      case .brokenPipe:
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        handle = pipe
      }
      if descriptor == 1 { process.standardOutput = handle } else { process.standardError = handle }
      return captured
    }
    let output = try attach(stdout, descriptor: 1)
    let error = try attach(stderr, descriptor: 2)
    if closing.isEmpty {
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", "exec \"$0\" \"$@\" \(closing.joined(separator: " "))", path] + arguments
    }
    try process.run()
    let watchdog = DispatchWorkItem { [process] in
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .milliseconds(Int(timeout.components.seconds * 1000)), execute: watchdog)
    defer { watchdog.cancel() }
    let (out, err) = readBoth(output, error)
    process.waitUntilExit()
    return (
      process.terminationStatus, process.terminationReason == .uncaughtSignal,
      String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
    )
  }
}
