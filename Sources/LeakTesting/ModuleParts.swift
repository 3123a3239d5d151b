/// The objects a `makeAndExpose` factory hands back, held weakly.
///
/// A tuple, struct or array contributes each element or stored property that
/// is a class instance (optionals unwrapped), named by its label or position;
/// a class instance contributes itself.
struct ModuleParts {
  struct Part {
    /// `` `presenter` `` for a labelled part, `#2` for an unlabelled one.
    let name: String
    let reference: WeakReference
  }

  let parts: [Part]
  let moduleTypeName: String

  init(_ module: Any) {
    moduleTypeName = nameOfType(module)
    if let root = Self.classInstance(module) {
      parts = [Part(name: "#1", reference: WeakReference(root))]
      return
    }
    var parts: [Part] = []
    for (index, child) in Mirror(reflecting: module).children.enumerated() {
      guard let object = Self.classInstance(child.value) else { continue }
      let name = child.label.flatMap { $0.hasPrefix(".") ? nil : "`\($0)`" } ?? "#\(index + 1)"
      parts.append(Part(name: name, reference: WeakReference(object)))
    }
    self.parts = parts
  }

  var allGone: Bool { parts.allSatisfy(\.reference.isGone) }

  /// One message per surviving part, or one if the module exposed no objects.
  func failures(wait: LeakWait, hint: String, explain: RetainPathExplainer?) -> [String] {
    guard !parts.isEmpty else {
      return ["the module (\(moduleTypeName)) exposes no objects to check"]
    }
    return parts.compactMap { part in
      guard let object = part.reference.object else { return nil }
      let message =
        "module part \(part.name) (\(part.reference.typeName)) is still alive\(wait.elapsedPhrase)"
        + " after the module was released\(hint)"
      return explained(message, object: object, explain: explain)
    }
  }

  /// `value` as an object if it is a class instance, looking through optionals.
  static func classInstance(_ value: Any) -> AnyObject? {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      return mirror.children.first.flatMap { classInstance($0.value) }
    }
    return type(of: value) is AnyClass ? value as AnyObject : nil
  }
}
