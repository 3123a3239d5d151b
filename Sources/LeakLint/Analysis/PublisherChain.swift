import SwiftSyntax

/// Reads a reactive chain (`session.dataTaskPublisher(for: url).map(\.data).sink { … }`):
/// the calls it is made of, and whether its publisher completes after one value
/// (a request, a `Future`, `Just`), so a subscription to it lets its closures go.
enum PublisherChain {
  /// Calls at the head of a chain whose publisher finishes on its own after one value (or none).
  static let oneShotHeads: Set<String> = [
    "dataTaskPublisher", "downloadTaskPublisher", "uploadTaskPublisher", "Just", "Future", "Fail", "Empty",
  ]

  /// Operators after which a chain finishes after one value.
  static let oneShotOperators: Set<String> = ["first", "prefix", "output", "asSingle", "take"]

  /// Result types that finish after one value (Combine's `Future`, RxSwift's traits).
  static let oneShotTypes: Set<String> = [
    "Future", "Just", "Single", "Maybe", "Completable", "Fail", "Empty",
  ]

  /// Whether a declared result type names a publisher (`AnyPublisher`, `Future`, `Observable`, `Single`).
  static func isPublisherTypeName(_ name: String) -> Bool {
    name.hasSuffix("Publisher") || oneShotTypes.contains(name) || name == "Observable"
  }

  /// The names of a chain's calls, outermost first: `a.b(x).c()` gives `c`, `b`.
  static func callNames(_ expression: ExprSyntax) -> [String] {
    var names: [String] = []
    var current: ExprSyntax? = expression.unwrapped
    while let node = current {
      if let call = node.as(FunctionCallExprSyntax.self) {
        var callee = call.calledExpression.unwrapped
        if let specialized = callee.as(GenericSpecializationExprSyntax.self) {
          callee = specialized.expression
        }
        if let member = callee.as(MemberAccessExprSyntax.self) {
          names.append(member.declName.baseName.text)
          current = member.base?.unwrapped
        } else if let reference = callee.as(DeclReferenceExprSyntax.self) {
          names.append(reference.baseName.text)
          current = nil
        } else {
          current = nil
        }
      } else if let member = node.as(MemberAccessExprSyntax.self) {
        current = member.base?.unwrapped
      } else {
        current = nil
      }
    }
    return names
  }

  /// The heads of the chains a function body returns (an explicit `return`, or a single expression).
  static func returnedHeads(of body: CodeBlockSyntax) -> [String] {
    var expressions = body.descendants(ReturnStmtSyntax.self, stoppingAt: [ClosureExprSyntax.self])
      .compactMap(\.expression)
    if expressions.isEmpty, body.statements.count == 1,
      let only = body.statements.first?.item.as(ExprSyntax.self)
    {
      expressions = [only]
    }
    return expressions.compactMap { callNames($0).last }
  }
}
