// `LintPrecision`: how many of `leaklab lint`'s findings on real code are true,
// as judged by reading the code (docs/lint-precision.md).
//
//   LintPrecision sample [--seed N] [--count N] TREE…
//       Lints each tree as one program and prints its findings by rule, then a
//       sample of them (a fixed-seed shuffle, the same every run) as rows to judge.
//   LintPrecision check RECORD [--seed N] [--count N] TREE…
//       Lints and samples again, and reads the verdicts in RECORD (Markdown rows
//       `| tree | file:line | rule | true or false | reason |`): every sampled
//       finding needs one. Prints precision per tree; exits 1 when a verdict is
//       missing or stale, or when a tree's precision is under 90 %.
//
// Trees are folders of Swift sources (a checkout, never committed here); a
// tree's name is its folder's name, and findings' paths are relative to it.
import Foundation
import LeakLint

struct Options {
  var command = ""
  var record: String?
  var seed: UInt64 = 27
  var count = 25
  var trees: [String] = []

  init(_ arguments: [String]) throws {
    var rest = arguments[...]
    guard let command = rest.popFirst(), ["sample", "check"].contains(command) else {
      throw LintError("usage: LintPrecision sample|check [RECORD] [--seed N] [--count N] TREE…")
    }
    self.command = command
    if command == "check" {
      guard let record = rest.popFirst() else { throw LintError("check needs the record file") }
      self.record = record
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--seed":
        guard let value = rest.popFirst().flatMap(UInt64.init) else {
          throw LintError("--seed needs a number")
        }
        seed = value
      case "--count":
        guard let value = rest.popFirst().flatMap(Int.init), value > 0 else {
          throw LintError("--count needs a positive number")
        }
        count = value
      default: trees.append(argument)
      }
    }
    guard !trees.isEmpty else { throw LintError("no tree given") }
  }
}

/// SplitMix64: a small generator whose sequence is fixed by its seed on every platform.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// FNV-1a of a name, so each tree's sample has a seed of its own.
func fnv1a(_ text: String) -> UInt64 {
  text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
}

struct Tree {
  var name: String
  var findings: [LintFinding]
  var fileCount: Int
  var lineCount: Int
  var sample: [LintFinding]
  var identicalOnSecondRun: Bool
}

func lint(_ path: String, options: Options) throws -> Tree {
  let root = URL(fileURLWithPath: path).standardizedFileURL.path
  let name = (root as NSString).lastPathComponent
  let linter = Linter()
  let report = try linter.lint(paths: [root])
  let again = try linter.lint(paths: [root])
  let findings = report.findings.map { finding -> LintFinding in
    var relative = finding
    if relative.file.hasPrefix(root + "/") { relative.file = String(relative.file.dropFirst(root.count + 1)) }
    return relative
  }
  var generator = SplitMix64(state: options.seed ^ fnv1a(name))
  let sample = Array(findings.shuffled(using: &generator).prefix(options.count)).sorted()
  return Tree(
    name: name, findings: findings, fileCount: report.fileCount, lineCount: report.lineCount, sample: sample,
    identicalOnSecondRun: LintOutputFormat.json.render(report.findings)
      == LintOutputFormat.json.render(again.findings))
}

func key(_ finding: LintFinding) -> String { "\(finding.file):\(finding.line) \(finding.rule.rawValue)" }

/// Verdicts by tree, then by `file:line rule`.
func readVerdicts(_ path: String) throws -> [String: [String: (isTrue: Bool, reason: String)]] {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
    throw LintError("cannot read \(path)")
  }
  var result: [String: [String: (isTrue: Bool, reason: String)]] = [:]
  for line in text.split(separator: "\n") where line.hasPrefix("|") {
    let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard cells.count >= 5, ["true", "false"].contains(cells[3]) else { continue }
    result[cells[0], default: [:]]["\(cells[1]) \(cells[2])"] = (cells[3] == "true", cells[4])
  }
  return result
}

func percent(_ part: Int, _ whole: Int) -> String {
  whole == 0 ? "–" : "\(Int((Double(part) / Double(whole) * 100).rounded())) %"
}

func run() throws -> Int32 {
  let options = try Options(Array(CommandLine.arguments.dropFirst()))
  let trees = try options.trees.map { try lint($0, options: options) }
  print("seed \(options.seed), up to \(options.count) findings sampled per tree")
  for tree in trees {
    let rules = Dictionary(grouping: tree.findings, by: \.rule).map { "\($0.key.rawValue) \($0.value.count)" }
    print(
      "\(tree.name): \(tree.findings.count) findings in \(tree.fileCount) files (\(tree.lineCount) lines)"
        + (rules.isEmpty ? "" : ": " + rules.sorted().joined(separator: ", "))
        + (tree.identicalOnSecondRun ? "; second run identical" : "; SECOND RUN DIFFERS"))
  }
  if options.command == "sample" {
    print("\n| tree | file:line | rule | verdict | reason |\n|---|---|---|---|---|")
    for tree in trees {
      for finding in tree.sample {
        print(
          "| \(tree.name) | \(finding.file):\(finding.line) | \(finding.rule.rawValue) | ? | \(finding.message) |"
        )
      }
    }
    return trees.allSatisfy(\.identicalOnSecondRun) ? 0 : 1
  }
  let verdicts = try readVerdicts(options.record ?? "")
  var failed = !trees.allSatisfy(\.identicalOnSecondRun)
  print("\n| tree | findings | sampled | true | false | precision |\n|---|---|---|---|---|---|")
  for tree in trees {
    let judged = verdicts[tree.name] ?? [:]
    let sampled = Set(tree.sample.map(key))
    var trueCount = 0
    var falseCount = 0
    for finding in tree.sample {
      guard let verdict = judged[key(finding)] else {
        print("missing verdict: \(tree.name) \(key(finding)): \(finding.message)")
        failed = true
        continue
      }
      if verdict.isTrue { trueCount += 1 } else { falseCount += 1 }
    }
    for stale in judged.keys.sorted() where !sampled.contains(stale) {
      print("stale verdict (not in this sample): \(tree.name) \(stale)")
      failed = true
    }
    let judgedCount = trueCount + falseCount
    if judgedCount > 0 && Double(trueCount) < 0.9 * Double(judgedCount) { failed = true }
    print(
      "| \(tree.name) | \(tree.findings.count) | \(tree.sample.count) | \(trueCount) | \(falseCount) | \(percent(trueCount, judgedCount)) |"
    )
  }
  return failed ? 1 : 0
}

do {
  exit(try run())
} catch {
  FileHandle.standardError.write(Data("LintPrecision: \(error)\n".utf8))
  exit(2)
}
