/// Names for the objects of C runtimes, from the symbol their first word
/// points at: a Block's isa, a Dispatch vtable, the Swift runtime's own
/// metadata for tasks and their frames.
package enum CRuntimeNames {
  /// `Block`, `dispatch source`, `dispatch continuation`, `Swift task`; nil
  /// for a symbol of no runtime this knows.
  package static func name(ofSymbol symbol: String) -> String? {
    switch symbol {
    case "_NSConcreteMallocBlock", "_NSConcreteStackBlock", "_NSConcreteGlobalBlock": return "Block"
    case "_dispatch_continuation_vtables": return "dispatch continuation"
    case "_ZL16taskHeapMetadata": return "Swift task"
    case "_ZN5swift25TaskAllocatorSlabMetadataE": return "Task frames"
    default: break
    }
    if symbol.hasPrefix("__OS_dispatch_"), symbol.hasSuffix("_vtable") {
      let kind = symbol.dropFirst("__OS_dispatch_".count).dropLast("_vtable".count)
      return "dispatch " + kind.split(separator: "_").joined(separator: " ")
    }
    if symbol.hasPrefix("_dispatch_source_type_") {
      return "dispatch \(symbol.dropFirst("_dispatch_source_type_".count)) source state"
    }
    if symbol.hasPrefix("_ZTV") { return cppClass(mangled: symbol.dropFirst(4)) }
    return nil
  }

  /// The class a C++ vtable symbol names: `N6icu_7617RuleBasedCollatorE`
  /// (after `_ZTV`) is `icu_76::RuleBasedCollator`.
  static func cppClass(mangled: Substring) -> String? {
    var rest = mangled
    let nested = rest.first == "N"
    if nested { rest = rest.dropFirst() }
    var parts: [Substring] = []
    while let first = rest.first, first.isNumber {
      let digits = rest.prefix { $0.isNumber }
      guard let length = Int(digits), length > 0 else { return nil }
      rest = rest.dropFirst(digits.count)
      guard rest.count >= length else { return nil }
      parts.append(rest.prefix(length))
      rest = rest.dropFirst(length)
      if !nested { break }
    }
    guard !parts.isEmpty else { return nil }
    // `_GLOBAL__N_1` is the compiler's name for an anonymous namespace.
    return parts.map { $0.hasPrefix("_GLOBAL__N_") ? "(anonymous namespace)" : String($0) }.joined(
      separator: "::")
  }
}
