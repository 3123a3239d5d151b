/// Known leaks to leave out of a report: leaks of libraries you cannot fix,
/// leaks a program makes on purpose.
///
/// A rule names a type pattern (`*` and `?` wildcards) matched against the
/// qualified and the plain type name of each leaked block.
/// - `type PATTERN` (a library's leak): a matched block is set aside with
///   what only it holds — C blocks, closure contexts, storage, and class
///   instances of its own module. Class instances of other modules that it
///   holds stay in the report: a library's leak takes its library's objects
///   with it, never yours.
/// - `tree PATTERN` (a leak made on purpose): a matched block is set aside
///   with everything it holds, whatever the module.
///
/// The file format: one rule a line; `#` starts a comment, and the comment
/// lines above a group of rules (up to a blank line) say why they exist.
///
/// ```swift
/// let suppressions = try Suppressions.parse("""
///   # Foundation's Timer retains itself into its CF timer and never
///   # releases it on Linux, even when invalidated.
///   type Foundation.Timer
///   """, file: "leaks.supp")
/// ```
public struct Suppressions: Sendable, Hashable {
  /// One rule.
  public struct Rule: Sendable, Hashable {
    /// The type pattern: `Foundation.Timer`, `Foundation.*`, `*Observer`.
    public var pattern: String
    /// Why the rule exists.
    public var reason: String?
    /// Whether everything a matched block holds goes with it (`tree`), or
    /// only what belongs to its module (`type`).
    public var takesWholeTree: Bool

    /// Creates a rule.
    public init(pattern: String, reason: String? = nil, takesWholeTree: Bool = false) {
      self.pattern = pattern
      self.reason = reason
      self.takesWholeTree = takesWholeTree
    }

    /// Whether the rule matches `block`.
    public func matches(_ block: LeakedBlock) -> Bool {
      Glob.matches(pattern, block.typeName)
        || block.qualifiedTypeName.map { Glob.matches(pattern, $0) } == true
    }
  }

  /// The rules, in order.
  public var rules: [Rule]

  /// Rules from plain patterns (`--ignore`).
  public init(patterns: [String] = []) {
    rules = patterns.map { Rule(pattern: $0) }
  }

  /// Rules.
  public init(rules: [Rule]) {
    self.rules = rules
  }

  /// A malformed suppressions file: `file:line: what is wrong`.
  public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    /// Creates an error with its message.
    public init(description: String) {
      self.description = description
    }
  }

  /// Parses a suppressions file's text; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws(ParseError) -> Suppressions {
    var rules: [Rule] = []
    var comments: [String] = []
    for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.trimming(" \t\r")
      if line.isEmpty {
        comments = []
        continue
      }
      if line.hasPrefix("#") {
        comments.append(line.dropFirst().trimming(" \t"))
        continue
      }
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard words.first == "type" || words.first == "tree" else {
        throw ParseError(
          description:
            "\(file):\(number + 1): unknown rule \"\(words[0])\" (expected: type PATTERN or tree PATTERN)")
      }
      guard words.count == 2 else {
        throw ParseError(
          description: "\(file):\(number + 1): expected one type pattern after \"\(words[0])\"")
      }
      let reason = comments.filter { !$0.isEmpty }.joined(separator: " ")
      rules.append(
        Rule(
          pattern: String(words[1]), reason: reason.isEmpty ? nil : reason, takesWholeTree: words[0] == "tree"
        ))
    }
    return Suppressions(rules: rules)
  }

  /// Splits `graph` into what stays reported, what each rule set aside (and
  /// the index of each such rule), and the set-aside blocks as a graph of
  /// their own with each block's rule.
  func split(_ graph: LeakGraph) -> (
    kept: LeakGraph, suppressed: [LeakReport.SuppressedLeaks], suppressingRules: [Int], setAside: LeakGraph,
    ruleOfSetAside: [Int]
  ) {
    guard !rules.isEmpty else { return (graph, [], [], LeakGraph(blocks: [], edges: []), []) }
    let matchedRule: [Int?] = graph.blocks.map { block in rules.firstIndex { $0.matches(block) } }
    let outgoing = graph.outgoing()
    // Reached from a matched block (and owned by its rule, first come).
    var owner = matchedRule
    var ownerModule = graph.blocks.indices.map { matchedRule[$0] == nil ? nil : graph.blocks[$0].module }
    var queue = matchedRule.indices.filter { matchedRule[$0] != nil }
    while let block = queue.popLast() {
      for edge in outgoing[block] where owner[edge.to] == nil {
        owner[edge.to] = owner[block]
        ownerModule[edge.to] = ownerModule[block]
        queue.append(edge.to)
      }
    }
    // Kept: unmatched class instances of another module than the matched
    // block that reaches them, and everything they reach without passing a
    // matched block.
    var kept = graph.blocks.indices.map { owner[$0] == nil }
    queue = graph.blocks.indices.filter { block in
      guard matchedRule[block] == nil, graph.blocks[block].kind == .object else { return false }
      guard let rule = owner[block] else { return true }
      return !rules[rule].takesWholeTree && graph.blocks[block].module != ownerModule[block]
    }
    for block in queue { kept[block] = true }
    while let block = queue.popLast() {
      for edge in outgoing[block] where !kept[edge.to] && matchedRule[edge.to] == nil {
        kept[edge.to] = true
        queue.append(edge.to)
      }
    }
    var newIndex = [Int?](repeating: nil, count: graph.blocks.count)
    var asideIndex = [Int?](repeating: nil, count: graph.blocks.count)
    var blocks: [LeakedBlock] = []
    var asideBlocks: [LeakedBlock] = []
    var ruleOfSetAside: [Int] = []
    var counts = [(blocks: Int, bytes: Int)](repeating: (0, 0), count: rules.count)
    for (index, block) in graph.blocks.enumerated() {
      if kept[index] {
        newIndex[index] = blocks.count
        blocks.append(block)
      } else if let rule = owner[index] {
        counts[rule].blocks += 1
        counts[rule].bytes += block.size
        asideIndex[index] = asideBlocks.count
        asideBlocks.append(block)
        ruleOfSetAside.append(rule)
      }
    }
    func moved(_ index: [Int?]) -> [LeakEdge] {
      graph.edges.compactMap { edge -> LeakEdge? in
        guard let from = index[edge.from], let to = index[edge.to] else { return nil }
        var moved = edge
        moved.from = from
        moved.to = to
        return moved
      }
    }
    let edges = moved(newIndex)
    // Reported blocks a suppressed block holds.
    var holds = [Set<String>](repeating: [], count: rules.count)
    for edge in graph.edges where !kept[edge.from] && kept[edge.to] {
      if let rule = owner[edge.from] { holds[rule].insert(graph.blocks[edge.to].typeName) }
    }
    let suppressingRules = rules.indices.filter { counts[$0].blocks > 0 }
    let suppressed = suppressingRules.map {
      LeakReport.SuppressedLeaks(
        pattern: rules[$0].pattern, reason: rules[$0].reason, blocks: counts[$0].blocks,
        bytes: counts[$0].bytes,
        holds: holds[$0].sorted())
    }
    return (
      LeakGraph(blocks: blocks, edges: edges), suppressed, suppressingRules,
      LeakGraph(blocks: asideBlocks, edges: moved(asideIndex)),
      ruleOfSetAside
    )
  }
}

extension LeakedBlock {
  /// The module of a class instance's type (`Foundation` for `Foundation.Timer`).
  var module: String? {
    qualifiedTypeName.flatMap { name in name.firstIndex(of: ".").map { String(name[..<$0]) } }
  }
}

/// Shell-style wildcard matching: `*` any run of characters, `?` one.
enum Glob {
  static func matches(_ pattern: String, _ text: String) -> Bool {
    let pattern = Array(pattern)
    let text = Array(text)
    var p = 0
    var t = 0
    var star: Int?
    var resume = 0
    while t < text.count {
      if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
        p += 1
        t += 1
      } else if p < pattern.count, pattern[p] == "*" {
        star = p
        resume = t
        p += 1
      } else if let star {
        p = star + 1
        resume += 1
        t = resume
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}

extension StringProtocol {
  /// The text without leading and trailing characters from `characters`.
  func trimming(_ characters: String) -> String {
    var slice = Substring(self)
    while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}
