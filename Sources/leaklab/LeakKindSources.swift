#if !LEAKLAB_WITHOUT_LINT
  import Foundation
  import LeakLint
  import MemoryView
  import ProcessLeaks

  /// Where `leaklab lint` finds a leak kind's pattern in the program's
  /// sources (`leaklab leaks --sources DIR`): findings of the kind's lint rule
  /// in a file that declares one of the program's types on the kind's cycle.
  ///
  /// ```text
  /// KIND a54d57d4: 20 × Subscription → Task … (task, …, captures, captures[1]), 263 blocks, 63528 B
  ///    pattern: a task that keeps what runs it (catalogue task-loop, lint rule task-loop)
  ///    lint: Sources/App/main.swift:31:17: warning: this task is kept in `task`, … [task-loop]
  /// ```
  enum LeakKindSources {
    /// The most findings named under one kind.
    static let findingsPerKind = 3

    /// `kinds` with the lint's findings for each kind's pattern.
    static func annotate(_ kinds: [LeakKind], graph: LeakGraph, findings: [LintFinding]) -> [LeakKind] {
      var declarations: [String: String] = [:]
      func text(of file: String) -> String {
        if let known = declarations[file] { return known }
        let text = SmallFile.text(file) ?? ""
        declarations[file] = text
        return text
      }
      return kinds.map { kind in
        guard let rule = kind.pattern?.lintRule, let root = kind.roots.first else { return kind }
        let types = Set(
          ([root] + kind.wayBack.map(\.to)).filter { graph.blocks[$0].isProgramType }
            .map { plainName(graph.blocks[$0].typeName) })
        var annotated = kind
        annotated.lintLines =
          findings
          .filter { finding in
            finding.rule.rawValue == rule
              && types.contains { declares(text(of: finding.file), type: $0) }
          }
          .sorted().prefix(findingsPerKind).map(\.compilerFormat)
        return annotated
      }
    }

    /// `PingTimer` for `PingTimer<KeepaliveTimerView>`.
    static func plainName(_ typeName: String) -> String {
      String(typeName.prefix { $0 != "<" })
    }

    /// Whether `source` declares a type named `name` (a class, struct, actor or enum).
    static func declares(_ source: String, type name: String) -> Bool {
      for keyword in ["class", "struct", "actor", "enum"] {
        var rest = source[...]
        while let range = rest.range(of: "\(keyword) \(name)") {
          let after = rest[range.upperBound...].first
          if after.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
          rest = rest[range.upperBound...]
        }
      }
      return false
    }
  }
#endif
