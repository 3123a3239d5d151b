import Foundation

/// The package's root folder, found from this file's path (for tests that read
/// the README, scripts or sources).
///
/// ```swift
/// let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
/// ```
public let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()  // TestSupport
  .deletingLastPathComponent()  // Tests
  .deletingLastPathComponent()
