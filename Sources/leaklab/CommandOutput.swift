import Foundation
import LeakLabLocking

#if canImport(Glibc)
  import Glibc
#endif

/// Where every `leaklab` command writes: its report to stdout, its errors to stderr.
///
/// Writes go straight to the file descriptors with `write(2)`: a failed write
/// (stdout closed, a full disk, a reader that went away) is remembered, never
/// a crash, and never silent. ``exit(_:)`` ends the command: if any part of
/// the report could not be written it prints one line on stderr (when stderr
/// can be written) and exits with ``writeFailureStatus``, whatever the
/// command's own status was. SIGPIPE is ignored (``prepare()``), so a reader
/// that closes the pipe early is a write error like any other, not a silent
/// death. Use it from every command instead of `print` and `FileHandle`.
///
/// ```swift
/// CommandOutput.line("closure-capture  Method passed as a closure")
/// CommandOutput.error("unknown scenario \"x\" (see leaklab list)")
/// CommandOutput.exit(2)
/// ```
enum CommandOutput {
  /// The exit status when the report could not be written (sysexits' EX_IOERR).
  static let writeFailureStatus: Int32 = 74

  /// The first error (`errno`) of a write to stdout, if any.
  private static let failure = Locked<Int32?>(nil)

  /// Ignores SIGPIPE, so that writing to a closed pipe fails with EPIPE instead
  /// of killing the process, and notes a stdout that was closed before the
  /// program started. Call once, first thing.
  ///
  /// A closed stdout or stderr is occupied with `/dev/null` (writes to stdout
  /// then count as failed): otherwise the next file the process opens would
  /// get its number, and the report would be written into that file.
  static func prepare() {
    signal(SIGPIPE, SIG_IGN)
    for descriptor in [STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
      if descriptor == STDOUT_FILENO { failure.withLock { $0 = EBADF } }
      let null = open("/dev/null", O_WRONLY)
      if null >= 0, null != descriptor {
        dup2(null, descriptor)
        close(null)
      }
    }
  }

  /// Writes `text` to stdout as it is.
  static func write(_ text: String) {
    guard failure.withLock({ $0 == nil }) else { return }
    if let error = writeAll(text, to: STDOUT_FILENO) {
      failure.withLock { $0 = $0 ?? error }
    }
  }

  /// Writes `text` and a newline to stdout.
  static func line(_ text: String) {
    write(text + "\n")
  }

  /// Writes each of `lines`, newline-terminated, to stdout in one write.
  static func lines(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    write(lines.joined(separator: "\n") + "\n")
  }

  /// Writes `leaklab: message` and a newline to stderr; a failure is ignored
  /// (there is nowhere left to report it).
  static func error(_ message: String) {
    _ = writeAll("leaklab: \(message)\n", to: STDERR_FILENO)
  }

  /// Writes `text` and a newline to stderr as it is (for `file:line: message`).
  static func errorLine(_ text: String) {
    _ = writeAll(text + "\n", to: STDERR_FILENO)
  }

  /// Whether every write to stdout so far succeeded.
  static var succeeded: Bool { failure.withLock { $0 == nil } }

  /// Ends the process with `status`, or with ``writeFailureStatus`` and one
  /// line on stderr if the report could not be written.
  static func exit(_ status: Int32) -> Never {
    if let error = failure.withLock({ $0 }) {
      self.error("cannot write the output: \(String(cString: strerror(error)))")
      Foundation.exit(writeFailureStatus)
    }
    Foundation.exit(status)
  }

  /// Writes all of `text` to `descriptor`; returns the `errno` of a failure.
  private static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes -> Int32? in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        if written == 0 { return EIO }
        offset += written
      }
      return nil
    }
  }
}
