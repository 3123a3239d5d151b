import Foundation
import LeakLabTestSupport
import LeakLint
import Testing

/// A corpus of realistic files (UIKit-style and server-style), each a leaky
/// and a fixed form. A leaky file marks each leak with `// leak: RULE`.
/// Recall is marked leaks found by their rule; a false positive is any other
/// finding, in either form. Both are printed.
@Suite struct CorpusTests {
  struct Score {
    var files = 0
    var lines = 0
    var leaks = 0
    var found = 0
    var falsePositives: [String] = []
    var missed: [String] = []
  }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Corpus")

  static func score() throws -> Score {
    var score = Score()
    let files = try Linter().swiftFiles(under: [folder.path])
    for path in files {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let name = String(path.dropFirst(folder.path.count + 1))
      // Each file is its own program: the leaky and fixed forms declare the same types.
      let findings = Linter().lint(source: text, path: name)
      var expected: [Int: LintRule] = [:]
      for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        guard let marker = line.range(of: "// leak: ") else { continue }
        expected[offset + 1] = LintRule(
          rawValue: String(line[marker.upperBound...]).trimmingCharacters(in: .whitespaces))
      }
      score.files += 1
      score.lines += text.split(separator: "\n", omittingEmptySubsequences: false).count
      score.leaks += expected.count
      for finding in findings {
        if expected[finding.line] == finding.rule {
          score.found += 1
          expected[finding.line] = nil
        } else {
          score.falsePositives.append(finding.compilerFormat)
        }
      }
      score.missed += expected.keys.sorted().map { "\(name):\($0)" }
    }
    return score
  }

  @Test func recallAndFalsePositivesOnTheCorpus() throws {
    let score = try Self.score()
    let recall = Double(score.found) / Double(max(score.leaks, 1))
    print(
      "corpus: \(score.files) files, \(score.lines) lines; recall \(score.found)/\(score.leaks)"
        + " (\(Int((recall * 100).rounded())) %), false positives \(score.falsePositives.count)")
    print("corpus: missed \(score.missed.joined(separator: ", "))")
    #expect(score.falsePositives.isEmpty, "\(score.falsePositives)")
    #expect(score.files >= 20 && score.leaks >= 20)
    #expect(recall >= 0.95)
  }
}

/// The lint on this repository's own libraries, as a precision check on real
/// code: the one finding is the live scheduler's own `asyncAfter { [self] in … }`,
/// a true (and intended) temporary hold.
@Suite struct RepositoryLintTests {
  @Test func theLibrariesHaveOnlyTheLiveSchedulersTemporaryHold() throws {
    let root = packageRoot.path
    let report = try Linter().lint(paths: [root + "/Sources"])
    #expect(report.fileCount > 50)
    #expect(report.findings.map(\.rule) == [.delayedDispatch], "\(report.findings.map(\.compilerFormat))")
    #expect(report.findings.first?.file.hasSuffix("LiveScheduler.swift") == true)
  }
}
