/// One loss record of a valgrind memcheck leak report: blocks still
/// allocated at exit that share an allocation stack.
///
/// ```text
/// ==42== 120 bytes in 1 blocks are indirectly lost in loss record 5 of 20
/// ==42==    at 0x48417B4: malloc (vg_replace_malloc.c:381)
/// ==42==    by 0x4D05A6E: swift_slowAlloc (in /usr/lib/swift/linux/libswiftCore.so)
/// ==42==    by 0x4D05DC6: swift_allocObject (in /usr/lib/swift/linux/libswiftCore.so)
/// ==42==    by 0x15C913: $s9Scenarios10SyncScreenCACycfC (DelayedDispatch.swift:27)
/// ```
public struct LossRecord: Sendable, Equatable {
  /// How memcheck classifies the blocks at exit.
  public enum Kind: String, Sendable, CaseIterable {
    /// No pointer to the blocks anywhere.
    case definitelyLost = "definitely lost"
    /// Only pointed to from lost blocks: part of a lost structure, such as a cycle.
    case indirectlyLost = "indirectly lost"
    /// Only pointed to in their middle.
    case possiblyLost = "possibly lost"
    /// Reachable from a root: a global, a stack, a register.
    case stillReachable = "still reachable"

    /// Whether nothing the program can reach points at the blocks.
    public var isUnreachable: Bool { self != .stillReachable }
  }

  /// The classification.
  public var kind: Kind
  /// The bytes in the record's blocks (direct and indirect).
  public var bytes: Int
  /// The number of blocks.
  public var blocks: Int
  /// The allocation stack, innermost first: function names as valgrind
  /// printed them (Swift names mangled).
  public var frames: [String]

  /// Creates a record.
  public init(kind: Kind, bytes: Int, blocks: Int, frames: [String]) {
    self.kind = kind
    self.bytes = bytes
    self.blocks = blocks
    self.frames = frames
  }

  /// The loss records of a memcheck log (`--log-file`), in the log's order.
  ///
  /// Lines other than record headers and the stack frames under them are
  /// skipped, so a whole log can be passed in.
  public static func parse(log: String) -> [LossRecord] {
    var records: [LossRecord] = []
    var current: LossRecord?
    for rawLine in log.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = Self.strippingPrefix(rawLine)
      if let header = Self.header(line) {
        if let finished = current { records.append(finished) }
        current = header
      } else if current != nil, let frame = Self.frame(line) {
        current?.frames.append(frame)
      } else if let finished = current {
        records.append(finished)
        current = nil
      }
    }
    if let finished = current { records.append(finished) }
    return records
  }

  /// A log line without its `==PID== ` prefix.
  private static func strippingPrefix(_ line: Substring) -> Substring {
    guard line.hasPrefix("=="), let end = line.dropFirst(2).firstRange(of: "== ") else { return line }
    return line[end.upperBound...]
  }

  /// `N bytes in B blocks are KIND in loss record I of T`, also with
  /// `N (D direct, I indirect) bytes`.
  private static func header(_ line: Substring) -> LossRecord? {
    guard let kindStart = line.firstRange(of: " blocks are "),
      let end = line.firstRange(of: " in loss record ")
    else { return nil }
    guard let kind = Kind(rawValue: String(line[kindStart.upperBound..<end.lowerBound])) else { return nil }
    let sizes = line[..<kindStart.lowerBound].split(separator: " ")
    guard let bytes = sizes.first.flatMap(number), let blocks = sizes.last.flatMap(number) else { return nil }
    return LossRecord(kind: kind, bytes: bytes, blocks: blocks, frames: [])
  }

  /// `   at 0xADDR: name (location)` or `   by 0xADDR: name (location)`: the name.
  private static func frame(_ line: Substring) -> String? {
    let trimmed = line.drop { $0 == " " }
    guard trimmed.hasPrefix("at 0x") || trimmed.hasPrefix("by 0x"), let colon = trimmed.firstRange(of: ": ")
    else { return nil }
    var name = trimmed[colon.upperBound...]
    if name.hasSuffix(")"), let location = name.ranges(of: " (").last {
      name = name[..<location.lowerBound]
    }
    return String(name)
  }

  private static func number(_ text: Substring) -> Int? {
    Int(text.filter { $0 != "," })
  }
}
