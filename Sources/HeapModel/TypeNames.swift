/// Turns fully qualified demangled names into the names a developer writes.
package enum TypeNames {
  /// Removes module prefixes, `(extension in M):` qualifiers and private
  /// discriminators: `App.(Screen in _1A2B).load()` becomes `Screen.load()`.
  package static func unqualified(_ name: String) -> String {
    var text = name
    while let range = text.firstNameRange(of: "(extension in ") {
      guard let close = text[range.upperBound...].firstNameRange(of: "):") else { break }
      text.removeSubrange(range.lowerBound..<close.upperBound)
    }
    text = removingDiscriminators(text)
    return droppingModules(text)
  }

  /// The name `_typeName(_:qualified: false)` gives a type, from its
  /// module-qualified name: the last component of every qualified name
  /// (`Feed.Outer.Inner` is `Inner`, `Swift.Array<Feed.Node>` is
  /// `Array<Node>`), private discriminators dropped. Made from text, so it
  /// works for another process's types and never touches their metadata.
  package static func simple(_ qualified: String) -> String {
    var text = qualified
    while let range = text.firstRange(of: "(extension in ") {
      guard let close = text[range.upperBound...].firstRange(of: "):") else { break }
      text.removeSubrange(range.lowerBound..<close.upperBound)
    }
    text = removingDiscriminators(text)
    var result = ""
    var identifier = ""
    for character in text {
      if character.isIdentifierPart {
        identifier.append(character)
      } else if character == "." {
        identifier = ""  // a qualifier: only the last component stays
      } else {
        result += identifier
        identifier = ""
        result.append(character)
      }
    }
    return result + identifier
  }

  /// `(Screen in _1A2B)` and `(Screen in $7f00)` become `Screen`.
  static func removingDiscriminators(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    // `(` and `)` found by bytes: they are ASCII, and names are long.
    while let open = rest.utf8.firstIndex(of: UInt8(ascii: "(")) {
      result += rest[..<open]
      let inner = rest[rest.index(after: open)...]
      let name = inner.prefix(while: \.isIdentifierPart)
      let tail = inner[name.endIndex...]
      if !name.isEmpty, tail.hasPrefix(" in _") || tail.hasPrefix(" in $"),
        let close = tail.utf8.firstIndex(of: UInt8(ascii: ")"))
      {
        result += name
        rest = tail[tail.index(after: close)...]
      } else {
        result.append("(")
        rest = inner
      }
    }
    return result + rest
  }

  /// What the compiler prefixes a `lazy var`'s storage with: `lazy var
  /// describe` is stored as an optional named `$__lazy_storage_$_describe`.
  private static let lazyStoragePrefix = "$__lazy_storage_$_"

  /// The declared name of a `lazy var` whose storage the reflection metadata
  /// calls `stored` (`describe` for `$__lazy_storage_$_describe`); nil for
  /// any other stored property.
  package static func lazyVariable(stored: String) -> String? {
    guard stored.hasPrefix(lazyStoragePrefix), stored.count > lazyStoragePrefix.count else { return nil }
    return String(stored.dropFirst(lazyStoragePrefix.count))
  }

  /// A stored property's name as a developer reads it, from the name in its
  /// type's metadata: a `lazy var`'s storage is `describe (lazy var)`,
  /// any other name stays. The one place field names become labels (the
  /// heap model's, `Mirror`'s), so `leaklab leaks`, `explain`, the app and
  /// LeakTesting's messages all say the same.
  ///
  /// ```swift
  /// TypeNames.fieldLabel("$__lazy_storage_$_describe")  // "describe (lazy var)"
  /// TypeNames.fieldLabel("delegate")                     // "delegate"
  /// ```
  package static func fieldLabel(_ stored: String) -> String {
    lazyVariable(stored: stored).map { "\($0) (lazy var)" } ?? stored
  }

  /// Drops the first component (the module) of every qualified name.
  private static func droppingModules(_ text: String) -> String {
    var result = ""
    var identifier = ""
    var atTypeStart = true
    var moduleDropped = false
    for character in text {
      if character.isIdentifierPart {
        identifier.append(character)
        continue
      }
      if character == ".", atTypeStart, !moduleDropped, !identifier.isEmpty {
        identifier = ""
        moduleDropped = true
        continue
      }
      result += identifier
      identifier = ""
      result.append(character)
      atTypeStart = "<([, :".contains(character)
      moduleDropped = character == "." && moduleDropped
    }
    return result + identifier
  }
}

extension Character {
  /// Whether it can be part of an identifier: a letter, a digit or `_`
  /// (ASCII answered without Unicode's tables: names are mostly ASCII).
  package var isIdentifierPart: Bool {
    if let ascii = asciiValue {
      let lower = ascii | 0x20
      return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
        || ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9") || ascii == UInt8(ascii: "_")
    }
    return isLetter || isNumber
  }
}
