import MemoryView

/// Names the start of a path from a true root for a person.
package enum RootNames {
  /// `global NotificationCenter._defaultCenter in libFoundationEssentials.so`,
  /// `global __CFRunLoops in libFoundation.so`, `stack of thread 4242 (worker)`.
  package static func name(of root: HeapModel.RootEdge, in snapshot: ProcessSnapshot) -> String {
    guard case .global(let imageName) = root.kind else { return root.kind.description }
    guard let image = snapshot.images.image(containing: root.wordAddress),
      let symbol = image.symbol(containing: root.wordAddress, kinds: .object)
    else { return "global in \(imageName)" }
    let offset = root.wordAddress - symbol.address
    let suffix = offset == 0 || symbol.size <= 8 ? "" : " + \(offset)"
    return "global \(simplified(symbol.demangled))\(suffix) in \(image.name)"
  }

  /// A demangled variable as a developer writes it: modules, private
  /// discriminators and the type annotation dropped
  /// (`FoundationEssentials.(_defaultCenter in _D7F0…) : FoundationEssentials.NotificationCenter`
  /// becomes `_defaultCenter`; `static Testing.Configuration._all : …` becomes
  /// `static Configuration._all`).
  package static func simplified(_ demangled: String) -> String {
    var text = demangled
    if let annotation = text.firstRange(of: " : ") { text = String(text[..<annotation.lowerBound]) }
    return TypeNames.unqualified(text)
  }
}
