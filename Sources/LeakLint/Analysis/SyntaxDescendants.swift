import SwiftSyntax

extension SyntaxProtocol {
  /// Every descendant of type `T`, in source order, not looking inside nodes
  /// of the types in `stoppingAt`.
  func descendants<T: SyntaxProtocol>(_ type: T.Type, stoppingAt: [any SyntaxProtocol.Type] = []) -> [T] {
    var result: [T] = []
    var stack = Array(Syntax(self).children(viewMode: .sourceAccurate).reversed())
    while let node = stack.popLast() {
      if let match = node.as(T.self) { result.append(match) }
      if stoppingAt.contains(where: { node.is($0) }) { continue }
      stack.append(contentsOf: node.children(viewMode: .sourceAccurate).reversed())
    }
    return result
  }
}

extension ExprSyntax {
  /// The expression without parentheses, `try`, `await`, `!`, `?` and `&`.
  var unwrapped: ExprSyntax {
    var current = self
    while true {
      if let tuple = current.as(TupleExprSyntax.self), tuple.elements.count == 1,
        let only = tuple.elements.first,
        only.label == nil
      {
        current = only.expression
      } else if let node = current.as(TryExprSyntax.self) {
        current = node.expression
      } else if let node = current.as(AwaitExprSyntax.self) {
        current = node.expression
      } else if let node = current.as(ForceUnwrapExprSyntax.self) {
        current = node.expression
      } else if let node = current.as(OptionalChainingExprSyntax.self) {
        current = node.expression
      } else if let node = current.as(InOutExprSyntax.self) {
        current = node.expression
      } else {
        return current
      }
    }
  }

}
