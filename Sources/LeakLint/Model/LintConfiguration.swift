import Foundation

/// Which rules run and which files are skipped: `.leaklab-lint.json`.
///
/// The file is JSON with three optional keys; unknown keys and rule names are
/// errors, so a typo never silently turns a rule off.
///
/// ```json
/// {
///   "disabled": ["delayed-dispatch"],
///   "only": [],
///   "exclude": ["Tests/Fixtures", "Generated"]
/// }
/// ```
///
/// ```swift
/// let configuration = try LintConfiguration(contentsOf: URL(fileURLWithPath: ".leaklab-lint.json"))
/// let findings = try Linter(configuration: configuration).lint(paths: ["Sources"])
/// ```
public struct LintConfiguration: Sendable, Hashable {
  /// The name `leaklab lint` looks for in the current directory.
  public static let fileName = ".leaklab-lint.json"

  /// Rules that do not run.
  public var disabled: Set<LintRule>
  /// If not empty, only these rules run.
  public var only: Set<LintRule>
  /// Paths (a file or folder, relative to ``baseDirectory``) that are not linted.
  public var exclude: [String]
  /// The folder `exclude` paths are relative to: the configuration file's.
  public var baseDirectory: String

  /// Creates a configuration; the default runs every rule on every file.
  public init(
    disabled: Set<LintRule> = [], only: Set<LintRule> = [], exclude: [String] = [],
    baseDirectory: String = "."
  ) {
    self.disabled = disabled
    self.only = only
    self.exclude = exclude
    self.baseDirectory = baseDirectory
  }

  /// Reads a configuration file.
  public init(contentsOf url: URL) throws {
    let data: Data
    do { data = try Data(contentsOf: url) } catch {
      throw LintError("cannot read configuration \(url.path)")
    }
    try self.init(json: data, path: url.path)
    baseDirectory = url.deletingLastPathComponent().path
  }

  /// Parses a configuration from JSON; `path` names it in errors.
  public init(json: Data, path: String = LintConfiguration.fileName) throws {
    guard let object = try? JSONSerialization.jsonObject(with: json), let fields = object as? [String: Any]
    else {
      throw LintError("\(path): not a JSON object")
    }
    if let unknown = fields.keys.sorted().first(where: { !["disabled", "only", "exclude"].contains($0) }) {
      throw LintError("\(path): unknown key \"\(unknown)\" (expected disabled, only, exclude)")
    }
    func strings(_ key: String) throws -> [String] {
      guard let value = fields[key] else { return [] }
      guard let list = value as? [String] else {
        throw LintError("\(path): \"\(key)\" must be a list of strings")
      }
      return list
    }
    func rules(_ key: String) throws -> Set<LintRule> {
      Set(
        try strings(key).map { name in
          guard let rule = LintRule(rawValue: name) else {
            throw LintError("\(path): unknown rule \"\(name)\" in \"\(key)\"")
          }
          return rule
        })
    }
    self.init(disabled: try rules("disabled"), only: try rules("only"), exclude: try strings("exclude"))
  }

  /// Whether `rule` runs.
  public func isEnabled(_ rule: LintRule) -> Bool {
    !disabled.contains(rule) && (only.isEmpty || only.contains(rule))
  }

  /// Whether `path` is under one of the excluded paths.
  public func isExcluded(_ path: String) -> Bool {
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    return exclude.contains { excluded in
      let base = URL(fileURLWithPath: baseDirectory).appendingPathComponent(excluded).standardizedFileURL.path
      return standardized == base || standardized.hasPrefix(base + "/")
    }
  }
}

/// A problem with the linter's input: a missing file, a bad configuration. Its
/// description is one line.
public struct LintError: Error, CustomStringConvertible, Sendable {
  /// The one-line message.
  public var description: String

  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
