#if canImport(Glibc)
  import Glibc
#endif

extension LossRecord {
  /// The Swift class whose instance the record's blocks are, when the
  /// allocation went through an allocating initializer: `Scenarios.SyncScreen`.
  ///
  /// The frame above `swift_allocObject` is the allocating initializer of the
  /// class for an object; for a closure context or a box it is the function
  /// that made it, and the record names no class. Needs symbols for the
  /// program's own code (a debug build; an optimized build may inline the
  /// initializer away).
  public var allocatedClass: QualifiedTypeName? {
    guard let allocation = frames.firstIndex(of: "swift_allocObject"), frames.indices.contains(allocation + 1)
    else { return nil }
    guard let demangled = Self.demangle(frames[allocation + 1]),
      let initializer = demangled.firstRange(of: ".__allocating_init")
    else { return nil }
    return QualifiedTypeName(String(demangled[..<initializer.lowerBound]))
  }

  /// The module of the innermost Swift function on the allocation stack that
  /// belongs to a module (`$s` then the module name's length): the code that
  /// asked for the memory. Standard library functions (`$ss…`) and thunks are
  /// passed over, so a `String` grown by `Scenarios` code belongs to `Scenarios`.
  public var allocatingModule: String? {
    for frame in frames {
      var rest =
        frame.hasPrefix("_$s") ? frame.dropFirst(3) : frame.hasPrefix("$s") ? frame.dropFirst(2) : nil
      guard let digits = rest?.prefix(while: \.isNumber), !digits.isEmpty, let length = Int(digits) else {
        continue
      }
      rest = rest?.dropFirst(digits.count)
      if let name = rest?.prefix(length), name.count == length { return String(name) }
    }
    return nil
  }

  /// The demangled form of a Swift symbol, or nil when it is not one.
  static func demangle(_ symbol: String) -> String? {
    guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s"), let demangle = runtimeDemangle else {
      return nil
    }
    let utf8 = Array(symbol.utf8CString)
    guard let demangled = demangle(utf8, utf8.count - 1, nil, nil, 0) else { return nil }
    defer { free(demangled) }
    return String(cString: demangled)
  }

  /// The runtime's `swift_demangle`, looked up at run time so this module
  /// needs no C target: valgrind 3.19 cannot read the DWARF 5 that clang
  /// emits for C code, and the probe it runs links this module.
  private static let runtimeDemangle: DemangleFunction? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_demangle") else { return nil }
    return unsafeBitCast(symbol, to: DemangleFunction.self)
  }()

  private typealias DemangleFunction =
    @convention(c) (
      UnsafePointer<CChar>, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?
}

/// A type name with its module: `Scenarios.SyncScreen`.
public struct QualifiedTypeName: Sendable, Hashable, CustomStringConvertible {
  /// The module: `Scenarios`.
  public var module: String
  /// The name inside the module, with any enclosing types: `SyncScreen`.
  public var name: String

  /// Splits `Module.Name` at its first dot.
  public init(_ qualified: String) {
    if let dot = qualified.firstIndex(of: ".") {
      module = String(qualified[..<dot])
      name = String(qualified[qualified.index(after: dot)...])
    } else {
      module = ""
      name = qualified
    }
  }

  public var description: String { module.isEmpty ? name : "\(module).\(name)" }
}
