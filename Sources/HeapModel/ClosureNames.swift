import LeakLabLocking
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// Names closures from their function pointers: `closure in AlertScreen.showAlert()`.
///
/// Closures are local ELF symbols, found in the `.symtab` of the image that
/// holds the function (``LoadedImage/symbol(containing:kinds:)``), then
/// demangled by the runtime and shortened to what a developer would write.
/// Without a symbol table (a stripped binary) the name is plain `closure`.
package enum ClosureNames {
  private static let cache = Locked<[UInt: String]>([:])

  /// The display name of the closure whose function is at `function` in this process.
  package static func name(of function: UInt) -> String {
    if let cached = cache.withLock({ $0[function] }) { return cached }
    let name = ImageList.ofThisProcess().map { Self.name(of: function, in: $0) } ?? "closure"
    cache.withLock { $0[function] = name }
    return name
  }

  /// The display name of the closure whose function is at `function` in a
  /// process with `images` (another process, or a copy of this one).
  package static func name(of function: UInt, in images: ImageList) -> String {
    guard function != 0, let image = images.image(containing: function),
      let symbol = image.symbol(containing: function, kinds: .function)
    else { return "closure" }
    return simplify(symbol.demangled)
  }

  /// The closure a task runs, from the resume functions of its async
  /// frames (innermost first): the outermost frame of the program's own
  /// code, past the concurrency library's frames and the compiler's thunks
  /// (`closure in Subscription.start()`); nil when no frame is named.
  package static func taskEntry(frames: [UInt], in images: ImageList) -> String? {
    for function in frames.reversed() where function != 0 {
      guard let image = images.image(containing: function), !image.name.hasPrefix("libswift_Concurrency"),
        let symbol = image.symbol(containing: function, kinds: .function)
      else { continue }
      var name = Substring(symbol.demangled)
      if let range = name.firstRange(of: "resume partial function for ") { name = name[range.upperBound...] }
      guard !name.hasPrefix("_Z"), !name.hasPrefix("partial apply forwarder for "),
        !name.hasPrefix("reabstraction thunk"), !name.hasPrefix("thunk for ")
      else { continue }
      return simplify(String(name))
    }
    return nil
  }

  /// Shortens a demangled function name.
  ///
  /// `partial apply forwarder for closure #1 () -> () in App.AlertScreen.showAlert() -> ()`
  /// becomes `closure in AlertScreen.showAlert()`; a method used as a
  /// closure (`App.Screen.handle(response: Swift.Int) -> ()`) becomes
  /// `Screen.handle(response:)`.
  package static func simplify(_ demangled: String) -> String {
    var text = Substring(TypeNames.removingDiscriminators(demangled))
    for prefix in ["partial apply forwarder for ", "reabstraction thunk helper from ", "thunk for "]
    where text.hasPrefix(prefix) {
      text = text.dropFirst(prefix.count)
    }
    var isClosure = false
    if let closure = text.lastNameRange(of: "closure #") {
      isClosure = true
      let rest = text[closure.upperBound...]
      guard let inRange = rest.firstNameRange(of: " in ") else { return "closure" }
      text = rest[inRange.upperBound...]
    }
    let function = TypeNames.unqualified(shortenSignature(String(text)))
    return isClosure ? "closure in \(function)" : function
  }

  /// Drops the result type and the parameter types: `f(x: Int) -> ()` becomes `f(x:)`.
  private static func shortenSignature(_ text: String) -> String {
    var text = text
    if let colon = text.firstNameRange(of: " : ") { text = String(text[..<colon.lowerBound]) }
    guard let open = firstTopLevelParenthesis(in: text) else { return text }
    let name = text[..<open]
    var depth = 0
    var parameters: [Substring] = []
    var start = text.index(after: open)
    var end = text.endIndex
    // By bytes: every character looked for is ASCII.
    let utf8 = text.utf8
    for index in utf8[open...].indices {
      switch utf8[index] {
      case UInt8(ascii: "("), UInt8(ascii: "<"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: ">"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 {
          end = index
          break
        }
      case UInt8(ascii: ",") where depth == 1:
        parameters.append(text[start..<index])
        start = utf8.index(after: index)
      default: break
      }
      if end != text.endIndex { break }
    }
    let last = text[start..<end]
    if !last.trimmingSpaces.isEmpty { parameters.append(last) }
    let labels = parameters.map { parameter -> String in
      let trimmed = parameter.trimmingSpaces
      if let colon = trimmed.firstIndex(of: ":"),
        trimmed[..<colon].allSatisfy(\.isIdentifierPart)
      {
        return "\(trimmed[..<colon]):"
      }
      return "_:"
    }
    return "\(name)(\(labels.joined()))"
  }

  /// The first `(` that opens a parameter list, skipping `(extension in M):` and
  /// `(Name in $hash)` qualifiers.
  private static func firstTopLevelParenthesis(in text: String) -> String.Index? {
    var index = text.startIndex
    // By bytes: `(`, `)` and ` in ` are ASCII.
    while let open = text.utf8[index...].firstIndex(of: UInt8(ascii: "(")) {
      let inner = text[text.index(after: open)...]
      let close = inner.utf8.firstIndex(of: UInt8(ascii: ")"))
      if inner.hasPrefix("extension in ") || inner[..<(close ?? inner.endIndex)].containsName(" in ") {
        guard let close else { return nil }
        index = text.index(after: close)
        continue
      }
      return open
    }
    return nil
  }
}

extension Substring {
  var trimmingSpaces: Substring {
    var result = self
    while result.first == " " { result = result.dropFirst() }
    while result.last == " " { result = result.dropLast() }
    return result
  }
}
