import Foundation
import SwiftParser
import SwiftSyntax

/// Finds the catalogue's leak patterns in Swift source, statically.
///
/// The linter reads all the files it is given together, as one program: a
/// closure stored through a method declared in another file, or a delegate
/// whose owner is declared elsewhere, is seen across files. Lint a whole
/// module (or app) at once for the best answers; a file alone is linted with
/// what it shows, and nothing is reported that cannot be seen to leak.
///
/// ```swift
/// let linter = Linter()
/// let findings = linter.lint(source: """
///   final class Feed {
///     var onUpdate: (() -> Void)?
///     func start() { onUpdate = { self.reload() } }
///     func reload() {}
///   }
///   """, path: "Feed.swift")
/// print(findings[0].compilerFormat)
/// // Feed.swift:3:31: warning: self keeps this closure in `onUpdate`, … [stored-closure]
/// ```
public struct Linter: Sendable {
  /// Which rules run and which files are skipped.
  public var configuration: LintConfiguration

  /// Creates a linter.
  public init(configuration: LintConfiguration = LintConfiguration()) {
    self.configuration = configuration
  }

  /// Lints one piece of source as a file named `path`.
  public func lint(source: String, path: String = "input.swift") -> [LintFinding] {
    lint(files: [SourceInput(path: path, text: source)])
  }

  /// Lints several files together, as one program. Findings are sorted by file, line and column.
  public func lint(files: [SourceInput]) -> [LintFinding] {
    let clock = ContinuousClock()
    var mark = clock.now
    func phase(_ name: String) {
      if ProcessInfo.processInfo.environment["LEAKLINT_TIMING"] != nil {
        FileHandle.standardError.write(Data("\(name): \(clock.now - mark)\n".utf8))
      }
      mark = clock.now
    }
    let parsed = files.map { file in
      let tree = Parser.parse(source: file.text)
      return (file, tree, LineTable(file.text))
    }
    phase("parse")
    var index = TypeIndex()
    // The builders and walkers take the index or facts over and hand them
    // back; dropping our copy first keeps them uniquely referenced, so adding
    // to them never copies what earlier files added.
    for (position, (_, tree, lines)) in parsed.enumerated() {
      let builder = IndexBuilder(index: index, file: position, lines: lines)
      index = TypeIndex()
      builder.walk(tree)
      index = builder.takeIndex()
    }
    IndexBuilder.addMemberwiseInitializers(to: &index)
    index.computeHierarchy()
    phase("index")
    var facts = LintFacts()
    var nextLocal = 0
    for unit in index.units {
      let walker = BodyWalker(
        unit: unit, index: index, facts: facts, lines: parsed[unit.file].2, nextLocal: nextLocal)
      facts = LintFacts()
      facts = walker.run()
      nextLocal = walker.nextLocal
    }
    phase("walk")
    let resolution = Resolution(index: index, facts: facts, parameterRoots: facts.parameterRoots)
    var context = RuleContext(index: index, facts: facts, resolution: resolution, files: files.map(\.path))
    phase("resolve")
    let (rootFindings, claimed) = RootHeldRules.findings(&context)
    var findings = rootFindings
    findings += ClosureCycleRule.findings(&context, claimed: claimed)
    findings += TaskRules.findings(&context)
    findings += DeferredClosureRule.findings(&context)
    findings += GlobalRegistrationRule.findings(&context)
    phase("closure rules")
    findings += BackReferenceRule.findings(&context)
    phase("back references")
    let suppressions = files.map { Suppressions(text: $0.text) }
    let byPath = Dictionary(
      files.indices.map { (files[$0].path, $0) }, uniquingKeysWith: { first, _ in first })
    // Sorted on every field: the same input gives the same output, byte for byte.
    return Array(Set(findings)).filter { finding in
      configuration.isEnabled(finding.rule)
        && !(byPath[finding.file].map { suppressions[$0].suppresses(finding.rule, line: finding.line) }
          ?? false)
    }.sorted()
  }
}

/// A file to lint: its path (used in findings) and its text.
public struct SourceInput: Sendable, Hashable {
  /// The path, as findings should show it.
  public var path: String
  /// The Swift source.
  public var text: String

  /// Creates an input.
  public init(path: String, text: String) {
    self.path = path
    self.text = text
  }
}
