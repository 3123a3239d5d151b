import Foundation
import LeakLabTestSupport
import LeakLint
import Scenarios

/// A scenario's source file in one form, as a program: the other form's lines
/// and the toggle lines blanked, so line numbers stay those of the real file.
struct ScenarioForm {
  let scenario: Scenario
  let mode: ScenarioMode
  /// The real file's path, relative to the repository.
  let path: String
  /// The file with only this form's code.
  let text: String
  /// Lines of the marked region that belong to this form (`// leaklab:strong` or `weak`).
  let markedLines: Set<Int>
  /// Every line of the marked region (`// leaklab:code begin` … `end`).
  let regionLines: Set<Int>

  init(_ scenario: Scenario, mode: ScenarioMode) throws {
    self.scenario = scenario
    self.mode = mode
    let name = (scenario.sourceFile as NSString).lastPathComponent
    let root = packageRoot.path
    guard let relative = try Self.swiftFiles(under: "Scenarios").first(where: { $0.hasSuffix("/" + name) })
    else {
      throw LintError("no source file \(name) for \(scenario.id)")
    }
    path = relative
    let original = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    var lines: [String] = []
    var marked: Set<Int> = []
    var region: Set<Int> = []
    var inRegion = false
    for (offset, line) in original.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed == CodeExcerpt.beginMarker { inRegion = true }
      if trimmed == CodeExcerpt.endMarker { inRegion = false }
      let isToggle = line.hasSuffix("// leaklab:toggle")
      let isOther = line.hasSuffix("// leaklab:\(mode == .strong ? "weak" : "strong")")
      let isOwn = line.hasSuffix("// leaklab:\(mode.rawValue)")
      lines.append(isToggle || isOther ? "" : String(line))
      if isOwn && inRegion { marked.insert(offset + 1) }
      if inRegion { region.insert(offset + 1) }
    }
    text = lines.joined(separator: "\n")
    markedLines = marked
    regionLines = region
  }

  /// The Swift files under a folder of the repository, relative paths, sorted.
  static func swiftFiles(under folder: String) throws -> [String] {
    try Linter().swiftFiles(under: [packageRoot.path + "/" + folder]).map {
      String($0.dropFirst(packageRoot.path.count + 1))
    }
  }

  /// The libraries scenarios are written on, linted with each form as a user
  /// would lint a whole app: ScreenKit and LeakClock.
  static func libraryInputs() throws -> [SourceInput] {
    try (swiftFiles(under: "Sources/ScreenKit") + swiftFiles(under: "Sources/LeakClock")).map {
      SourceInput(path: $0, text: try String(contentsOfFile: packageRoot.path + "/" + $0, encoding: .utf8))
    }
  }

  /// The findings for this form, linted together with the libraries.
  func findings() throws -> [LintFinding] {
    Linter().lint(files: [SourceInput(path: path, text: text)] + (try Self.libraryInputs()))
  }
}
