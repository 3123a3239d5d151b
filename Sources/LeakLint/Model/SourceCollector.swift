import Foundation

extension Linter {
  /// The Swift files under `paths` (files as given, folders recursively,
  /// skipping hidden folders and `.build`), sorted, minus the excluded ones.
  ///
  /// Bad input is a ``LintError`` with a one-line message, never an empty
  /// success: a path that does not exist, a file named explicitly that is not
  /// a `.swift` file (`/etc/passwd`, a binary, a device), and paths under
  /// which there is no Swift file at all ("nothing to lint").
  public func swiftFiles(under paths: [String]) throws -> [String] {
    var result: [String] = []
    let manager = FileManager.default
    guard !paths.isEmpty else { throw LintError("nothing to lint: no file or folder given") }
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw LintError("no such file or folder: \(path)")
      }
      if !isDirectory.boolValue {
        guard path.hasSuffix(".swift") else {
          throw LintError("not a Swift file: \(path) (name .swift files or folders)")
        }
        let type = (try? manager.attributesOfItem(atPath: path)[.type]) as? FileAttributeType
        guard type == .typeRegular else { throw LintError("not a regular file: \(path)") }
        result.append(path)
        continue
      }
      // A folder named through a symbolic link is read as the folder it points to (its files keep
      // the name given).
      let folder = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      guard let enumerator = manager.enumerator(atPath: folder) else {
        throw LintError("cannot read folder: \(path)")
      }
      var found: [String] = []
      while let relative = enumerator.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".") || name == ".build" {
          enumerator.skipDescendants()
          continue
        }
        if name.hasSuffix(".swift") {
          found.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
        }
      }
      result += found.sorted()
    }
    let included = result.filter { !configuration.isExcluded($0) }
    guard !included.isEmpty else {
      let named = paths.joined(separator: ", ")
      throw LintError(
        "nothing to lint: no Swift files in \(named)\(result.isEmpty ? "" : " (all excluded by the configuration)")"
      )
    }
    return included
  }

  /// Lints every Swift file under `paths`, together.
  public func lint(paths: [String]) throws -> LintReport {
    let files = try swiftFiles(under: paths)
    let inputs = try files.map { path in
      guard let data = FileManager.default.contents(atPath: path) else {
        throw LintError("cannot read \(path)")
      }
      // Swift source is text: a NUL byte means a binary named `.swift`.
      guard !data.contains(0) else { throw LintError("not Swift source (binary data): \(path)") }
      return SourceInput(path: path, text: String(decoding: data, as: UTF8.self))
    }
    let lines = inputs.reduce(0) { total, input in
      let newlines = input.text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
      return total + newlines + (input.text.utf8.last.map { $0 == 10 ? 0 : 1 } ?? 0)
    }
    return LintReport(findings: lint(files: inputs), fileCount: inputs.count, lineCount: lines)
  }
}

/// What a lint run found, with how much it read.
public struct LintReport: Sendable, Hashable {
  /// The findings, sorted.
  public var findings: [LintFinding]
  /// How many files were linted.
  public var fileCount: Int
  /// How many lines they have.
  public var lineCount: Int

  /// Creates a report.
  public init(findings: [LintFinding], fileCount: Int, lineCount: Int) {
    self.findings = findings
    self.fileCount = fileCount
    self.lineCount = lineCount
  }
}
