#if canImport(Glibc)
  import Glibc
#endif

/// How a fixture runs: which form, how many requests, and whether it keeps
/// serving for a test that attaches to it.
///
/// ```text
/// ContextHandler leaky|fixed [--requests N] [--serve]
/// ```
///
/// With `--serve` the fixture prints `ready` and then reads lines from
/// stdin: a number `k` makes it send `k` more requests to itself and print
/// `served TOTAL`; end of input shuts it down.
public struct FixtureOptions: Sendable {
  /// `leaky` keeps one object graph per request; `fixed` keeps none.
  public var leaky: Bool
  /// Requests sent before shutting down (without `--serve`).
  public var requests: Int
  /// Whether to keep serving batches read from stdin.
  public var serve: Bool

  /// Parses the process's arguments; exits with status 2 and one line on
  /// stderr when they are not a fixture's.
  public static func parse(_ arguments: [String] = CommandLine.arguments) -> FixtureOptions {
    var options = FixtureOptions(leaky: true, requests: 20, serve: false)
    var rest = arguments.dropFirst()
    guard let form = rest.popFirst(), form == "leaky" || form == "fixed" else {
      fail("usage: \(arguments.first ?? "fixture") leaky|fixed [--requests N] [--serve]")
    }
    options.leaky = form == "leaky"
    while let argument = rest.popFirst() {
      switch argument {
      case "--requests":
        guard let value = rest.popFirst().flatMap(Int.init), value >= 0 else {
          fail("--requests needs a count")
        }
        options.requests = value
      case "--serve":
        options.serve = true
      default:
        fail("unknown argument: \(argument)")
      }
    }
    return options
  }

  static func fail(_ message: String) -> Never {
    writeError(message)
    exit(2)
  }
}

/// Writes one line to stderr (straight to the file descriptor: stdio's
/// `stderr` is shared mutable state to Swift 6).
func writeError(_ message: String) {
  let line = Array((message + "\n").utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
