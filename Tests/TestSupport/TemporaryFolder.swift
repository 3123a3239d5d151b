import Foundation

/// A folder of its own in the system's temporary directory, removed with
/// everything in it when the last reference to it goes.
///
/// Held by a suite, it lives for one test (Swift Testing makes a suite's
/// instance per test): a test's files go when the test ends, passed or not,
/// and a suite run again and again leaves nothing behind in `/tmp`.
///
/// ```swift
/// @Suite struct ReportTests {
///   let folder = TemporaryFolder("leaklab-report")
///   @Test func writes() throws { try "x".write(to: folder.file("a.txt"), atomically: true, encoding: .utf8) }
/// }
/// ```
public final class TemporaryFolder: Sendable {
  public let url: URL

  /// Creates `<tmp>/<prefix>-<8 random hex digits>`.
  public init(_ prefix: String) {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  public var path: String { url.path }

  /// The URL of `name` in the folder (the file itself is not created).
  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// Writes `text` to `name` in the folder and returns its path.
  public func write(_ text: String, to name: String) throws -> String {
    let file = file(name)
    try text.write(to: file, atomically: false, encoding: .utf8)
    return file.path
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}
