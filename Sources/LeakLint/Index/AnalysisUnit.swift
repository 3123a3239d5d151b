import SwiftSyntax

/// A piece of code analysed on its own: a function, initializer, deinit or
/// accessor body, a `lazy var`'s initial value, or a top-level statement.
struct AnalysisUnit {
  enum Kind: Equatable {
    case function(String)
    case initializer
    case deinitializer
    case accessor(String)
    case lazyInitializer(String)
    case topLevel
  }

  var id: Int
  var file: Int
  var kind: Kind
  /// The body or expression to walk.
  var node: Syntax
  /// The enclosing type, if any.
  var typeName: String?
  var isStatic: Bool
  var parameters: [FunctionInfo.Parameter]
  /// The function's index in ``TypeIndex/functions``, for parameters that it stores.
  var functionIndex: Int?
  /// An `override`, or `public`/`open`: something outside the linted code may call it.
  var isEntryPoint = false
  /// `private` or `fileprivate`: only the linted code can call it.
  var isPrivate = false

  /// A readable name for messages: `viewDidLoad()`, `init`, `deinit`.
  var displayName: String {
    switch kind {
    case .function(let name): "\(name)()"
    case .initializer: "init"
    case .deinitializer: "deinit"
    case .accessor(let name): name
    case .lazyInitializer(let name): "lazy var \(name)"
    case .topLevel: "top-level code"
    }
  }
}
