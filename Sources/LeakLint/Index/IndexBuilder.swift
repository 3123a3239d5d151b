import SwiftSyntax

/// Walks one file's declarations and adds its types, properties, functions and
/// analysis units to a ``TypeIndex``. Function bodies are not walked here.
final class IndexBuilder: SyntaxVisitor {
  private(set) var index: TypeIndex
  private let file: Int
  private let lines: LineTable
  private var typeStack: [String] = []

  init(index: TypeIndex, file: Int, lines: LineTable) {
    self.index = index
    self.file = file
    self.lines = lines
    super.init(viewMode: .sourceAccurate)
  }

  /// The index with this file's declarations, leaving this builder empty.
  func takeIndex() -> TypeIndex {
    defer { index = TypeIndex() }
    return index
  }

  /// Adds the memberwise initializers of structs that declare no `init`.
  static func addMemberwiseInitializers(to index: inout TypeIndex) {
    for (name, info) in index.types.sorted(by: { $0.key < $1.key })
    where info.kind == .struct && !info.hasExplicitInit {
      let parameters = info.propertyOrder.compactMap { info.properties[$0] }
        .filter { !$0.isComputed && !($0.isLet && $0.hasInitialValue) }
        .map {
          FunctionInfo.Parameter(
            label: $0.name, name: $0.name, hasDefault: $0.hasInitialValue, isClosure: $0.shape.isClosure)
        }
      _ = index.addFunction(
        FunctionInfo(name: "init", owner: name, parameters: parameters, isStatic: false, key: nil))
    }
  }

  func position(_ node: some SyntaxProtocol) -> SourcePosition {
    let location = lines.location(of: node.positionAfterSkippingLeadingTrivia)
    return SourcePosition(file: file, line: location.line, column: location.column)
  }

  // MARK: Types

  private func enter(
    _ name: String, kind: TypeInfo.Kind, inheritance: InheritanceClauseSyntax?,
    generics: GenericParameterClauseSyntax? = nil
  ) {
    let inherited = (inheritance?.inheritedTypes ?? []).flatMap { TypeShape($0.type).names }
    let parameters = Set((generics?.parameters ?? []).map(\.name.text))
    if kind != .unknown { index.declarationCounts[name, default: 0] += 1 }
    index.update(name) { info in
      if kind != .unknown { info.kind = kind }
      for parent in inherited where !info.inherited.contains(parent) { info.inherited.append(parent) }
      if kind == .protocol,
        inheritance?.inheritedTypes.contains(where: { $0.type.trimmedDescription == "AnyObject" }) == true,
        !info.inherited.contains("AnyObject")
      {
        info.inherited.append("AnyObject")
      }
      info.genericParameters.formUnion(parameters)
    }
    typeStack.append(name)
  }

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    enter(
      node.name.text, kind: .class, inheritance: node.inheritanceClause, generics: node.genericParameterClause
    )
    let isMain = node.attributes.contains {
      guard let name = $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
      return ["main", "UIApplicationMain", "NSApplicationMain"].contains(name)
    }
    let inherited = (node.inheritanceClause?.inheritedTypes ?? []).flatMap { TypeShape($0.type).names }
    if isMain || inherited.contains(where: KnownAPI.applicationDelegateProtocols.contains) {
      index.update(node.name.text) { $0.isApplicationDelegate = true }
    }
    return .visitChildren
  }
  override func visitPost(_ node: ClassDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    enter(
      node.name.text, kind: .struct, inheritance: node.inheritanceClause,
      generics: node.genericParameterClause)
    return .visitChildren
  }
  override func visitPost(_ node: StructDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    enter(
      node.name.text, kind: .enum, inheritance: node.inheritanceClause, generics: node.genericParameterClause)
    return .visitChildren
  }
  override func visitPost(_ node: EnumDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    enter(
      node.name.text, kind: .actor, inheritance: node.inheritanceClause, generics: node.genericParameterClause
    )
    return .visitChildren
  }
  override func visitPost(_ node: ActorDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    enter(node.name.text, kind: .protocol, inheritance: node.inheritanceClause)
    return .visitChildren
  }
  override func visitPost(_ node: ProtocolDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    let name = TypeShape(node.extendedType).names.last ?? node.extendedType.trimmedDescription
    enter(name, kind: .unknown, inheritance: node.inheritanceClause)
    return .visitChildren
  }
  override func visitPost(_ node: ExtensionDeclSyntax) { typeStack.removeLast() }

  // MARK: Members

  private var isMember: Bool { !typeStack.isEmpty }

  private static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }

  private static func parameters(_ clause: FunctionParameterClauseSyntax) -> [FunctionInfo.Parameter] {
    clause.parameters.map { parameter in
      let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
      let shape = TypeShape(parameter.type)
      return FunctionInfo.Parameter(
        label: label, name: (parameter.secondName ?? parameter.firstName).text,
        hasDefault: parameter.defaultValue != nil, isClosure: shape.isClosure,
        typeName: shape.isClosure ? nil : shape.names.first)
    }
  }

  private func addUnit(
    _ kind: AnalysisUnit.Kind, node: some SyntaxProtocol, isStatic: Bool = false,
    parameters: [FunctionInfo.Parameter] = [], functionIndex: Int? = nil
  ) {
    index.units.append(
      AnalysisUnit(
        id: index.units.count, file: file, kind: kind, node: Syntax(node), typeName: typeStack.last,
        isStatic: isStatic, parameters: parameters, functionIndex: functionIndex))
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    let isStatic = Self.isStatic(node.modifiers)
    let parameters = Self.parameters(node.signature.parameterClause)
    let name = node.name.text
    var function = FunctionInfo(
      name: name, owner: typeStack.last, parameters: parameters, isStatic: isStatic,
      key: NodeKey(file: file, id: node.id))
    function.resultTypeNames = TypeShape(node.signature.returnClause?.type).names
    function.resultType = TypeShape.nominalName(of: node.signature.returnClause?.type)
    if function.resultTypeNames.contains(where: PublisherChain.isPublisherTypeName), let body = node.body {
      function.returnedChainHeads = PublisherChain.returnedHeads(of: body)
    }
    let functionIndex = index.addFunction(function)
    if let owner = typeStack.last {
      index.update(owner) { info in
        if isStatic { info.staticMembers.insert(name) } else { info.methods.insert(name) }
      }
    }
    if let body = node.body {
      addUnit(
        .function(name), node: body, isStatic: isStatic, parameters: parameters, functionIndex: functionIndex)
      index.units[index.units.count - 1].isEntryPoint = node.modifiers.contains {
        [.keyword(.override), .keyword(.public), .keyword(.open)].contains($0.name.tokenKind)
      }
      index.units[index.units.count - 1].isPrivate = node.modifiers.contains {
        [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind)
      }
    }
    return .skipChildren
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    let parameters = Self.parameters(node.signature.parameterClause)
    let functionIndex = index.addFunction(
      FunctionInfo(
        name: "init", owner: typeStack.last, parameters: parameters, isStatic: false,
        key: NodeKey(file: file, id: node.id)))
    let isPrivate = node.modifiers.contains {
      $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate)
    }
    if let owner = typeStack.last {
      index.update(owner) { info in
        info.hasExplicitInit = true
        info.hasOnlyPrivateInits = (info.declaresInit ? info.hasOnlyPrivateInits : true) && isPrivate
        info.declaresInit = true
      }
    }
    if let body = node.body {
      addUnit(.initializer, node: body, parameters: parameters, functionIndex: functionIndex)
    }
    return .skipChildren
  }

  override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    if let body = node.body { addUnit(.deinitializer, node: body) }
    return .skipChildren
  }

  override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
    if let accessors = node.accessorBlock { addUnit(.accessor("subscript"), node: accessors) }
    return .skipChildren
  }

  override func visit(_ node: EnumCaseDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
    guard node.parent?.parent?.is(SourceFileSyntax.self) == true else { return .visitChildren }
    // `let session = Session()` at top level: a global that holds its object for good.
    if case .decl(let decl) = node.item, let variable = decl.as(VariableDeclSyntax.self) {
      for binding in variable.bindings {
        if variable.bindingSpecifier.tokenKind == .keyword(.var), Self.holdsCollection(binding),
          let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        {
          index.globalCollections.insert(name)
        }
        if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
          let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
          callee.baseName.text.first?.isUppercase == true
        {
          index.update(callee.baseName.text) { $0.hasStaticInstance = true }
        }
      }
    }
    switch node.item {
    case .decl(let decl) where !decl.is(VariableDeclSyntax.self): return .visitChildren
    default:
      addUnit(.topLevel, node: node)
      return .skipChildren
    }
  }

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    guard isMember, let owner = typeStack.last else { return .skipChildren }
    let isStatic = Self.isStatic(node.modifiers)
    var strength = PropertyInfo.Strength.strong
    var isLazy = false
    for modifier in node.modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.weak): strength = .weak
      case .keyword(.unowned): strength = .unowned
      case .keyword(.lazy): isLazy = true
      default: break
      }
    }
    let attributeNames = node.attributes.compactMap {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
    }
    let isOutlet = attributeNames.contains("IBOutlet")
    let isObjectWrapper = attributeNames.contains { KnownAPI.objectWrapperAttributes.contains($0) }
    let lastType = node.bindings.last?.typeAnnotation?.type
    for binding in node.bindings {
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
      if isStatic {
        let makesOwner =
          binding.initializer.map {
            Self.constructs(owner, $0.value, annotation: binding.typeAnnotation?.type)
          } ?? false
        let isCollection =
          node.bindingSpecifier.tokenKind == .keyword(.var) && binding.accessorBlock == nil
          && Self.holdsCollection(binding)
        index.update(owner) { info in
          info.staticMembers.insert(name)
          if makesOwner { info.hasStaticInstance = true }
          if isCollection { info.staticCollections.insert(name) }
        }
        continue
      }
      var property = PropertyInfo(name: name, owner: owner, position: position(binding.pattern))
      property.strength = strength
      property.isLet = node.bindingSpecifier.tokenKind == .keyword(.let)
      property.isLazy = isLazy
      property.isOutlet = isOutlet
      property.isObjectWrapper = isObjectWrapper
      property.shape = TypeShape(binding.typeAnnotation?.type ?? lastType)
      if let accessors = binding.accessorBlock {
        switch accessors.accessors {
        case .getter: property.isComputed = true
        case .accessors(let list):
          property.isComputed = list.contains {
            ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
          }
        }
        addUnit(.accessor(name), node: accessors)
      }
      if let value = binding.initializer?.value {
        property.hasInitialValue = true
        if let call = value.as(FunctionCallExprSyntax.self) {
          property.initialValueConstructs = true
          if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
            callee.baseName.text.first?.isUppercase == true
          {
            property.initialValueType = callee.baseName.text
          }
          if binding.typeAnnotation == nil,
            let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
            callee.baseName.text.first?.isUppercase == true
          {
            property.shape = TypeShape()
            property.shape.names =
              TypeShape.ignoredNames.contains(callee.baseName.text) ? [] : [callee.baseName.text]
          }
        } else if value.is(ClosureExprSyntax.self), binding.typeAnnotation == nil {
          property.shape.isClosure = true
        }
        if isLazy { addUnit(.lazyInitializer(name), node: value) }
      }
      index.update(owner) { info in
        if info.properties[name] == nil { info.propertyOrder.append(name) }
        info.properties[name] = property
      }
    }
    return .skipChildren
  }

  /// Whether a stored variable holds an array, a set or a dictionary: by its declared type
  /// (`[Screen]`, `Set<Session>`, `[UUID: Session]`) or its initial value (`[Screen]()`, `Set<Session>()`).
  static func holdsCollection(_ binding: PatternBindingSyntax) -> Bool {
    if let type = binding.typeAnnotation?.type { return TypeShape(type).isCollection }
    guard let call = binding.initializer?.value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
      call.trailingClosure == nil
    else { return false }
    var callee = call.calledExpression
    if callee.is(ArrayExprSyntax.self) || callee.is(DictionaryExprSyntax.self) { return true }
    if let specialized = callee.as(GenericSpecializationExprSyntax.self) { callee = specialized.expression }
    let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
    return ["Array", "Set", "Dictionary", "ContiguousArray"].contains(name)
  }

  /// Whether `value` makes an instance of `owner`: `Owner(…)`, `Owner.init(…)`, `Self()`, `.init()`, or
  /// `{ … }()` for a property declared as `Owner`.
  private static func constructs(_ owner: String, _ value: ExprSyntax, annotation: TypeSyntax?) -> Bool {
    guard let call = value.as(FunctionCallExprSyntax.self) else { return false }
    var callee = call.calledExpression
    if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init" {
      guard let base = member.base else { return true }
      callee = base
    }
    if let reference = callee.as(DeclReferenceExprSyntax.self) {
      return reference.baseName.text == owner || reference.baseName.text == "Self"
    }
    if callee.is(ClosureExprSyntax.self), let annotation {
      return TypeShape(annotation).names.first == owner
    }
    return false
  }
}
