import CMemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// An ELF image loaded in a process: the executable, a shared library, the
/// dynamic loader.
///
/// Found from the process's mappings; its program headers are read from the
/// process's own memory (the first page of an image maps its ELF header), its
/// symbols from the file on disk. The writable load segments are the image's
/// globals (`.data`, `.bss`, the GOT, relocated read-only data): roots of a
/// heap scan.
///
/// ```swift
/// let images = ImageList(map: map, memory: memory)
/// if let image = images.image(containing: address), let symbol = image.symbol(containing: address) {
///   print("\(symbol.demangled) in \(image.name)")
/// }
/// ```
public struct LoadedImage: Sendable, Hashable {
  /// The file's path as the process mapped it.
  public var path: String
  /// Where the image's first mapping starts.
  public var base: UInt
  /// What to add to an address in the file to get the address in memory.
  public var bias: UInt
  /// Every loaded segment, in memory.
  public var segments: [Range<UInt>]
  /// The writable load segments, in memory: the image's globals.
  public var writableRanges: [Range<UInt>]
  /// The thread-local segment: its size in memory and alignment (0 if none).
  public var threadLocalSize: UInt
  public var threadLocalAlignment: UInt

  /// The file name (`libFoundation.so`).
  public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

  /// Whether `address` is in one of the image's segments.
  public func contains(_ address: UInt) -> Bool { segments.contains { $0.contains(address) } }

  /// Whether `address` is in the image's globals.
  public func containsGlobal(_ address: UInt) -> Bool { writableRanges.contains { $0.contains(address) } }

  /// The global variable or function that contains `address`, from the
  /// image's `.symtab` (or `.dynsym` when stripped).
  public func symbol(containing address: UInt, kinds: SymbolKinds = [.object, .function]) -> ImageSymbol? {
    guard address >= bias, let file = mv_elfFile(path) else { return nil }
    var start: UInt64 = 0
    var size: UInt64 = 0
    guard let name = mv_elfSymbolContaining(file, UInt64(address - bias), kinds.rawValue, &start, &size)
    else {
      return nil
    }
    return ImageSymbol(name: String(cString: name), address: UInt(start) + bias, size: UInt(size))
  }

  /// The address in memory of the symbol `name`, from the image's symbol table.
  public func address(ofSymbol name: String, kinds: SymbolKinds = [.object, .function]) -> UInt? {
    guard let file = mv_elfFile(path) else { return nil }
    let address = mv_elfSymbolAddress(file, name, kinds.rawValue, nil)
    return address == 0 ? nil : UInt(address) + bias
  }

  /// The GNU build id of the file (lowercase hex), or nil.
  public var buildID: String? {
    guard let file = mv_elfFile(path) else { return nil }
    var buffer = [CChar](repeating: 0, count: 80)
    let length = mv_elfBuildID(file, &buffer, buffer.count)
    guard length > 0 else { return nil }
    return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// Kinds of ELF symbols to look up.
public struct SymbolKinds: OptionSet, Sendable, Hashable {
  public var rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let function = SymbolKinds(rawValue: MVSymbolFunction.rawValue)
  public static let object = SymbolKinds(rawValue: MVSymbolObject.rawValue)
  public static let threadLocal = SymbolKinds(rawValue: MVSymbolThreadLocal.rawValue)
}

/// A symbol of an image: a global variable or a function.
public struct ImageSymbol: Sendable, Hashable {
  /// The name as stored (mangled for Swift).
  public var name: String
  /// Its address in memory.
  public var address: UInt
  /// Its size in bytes (0 when the symbol table does not say).
  public var size: UInt

  /// The name demangled by the Swift runtime when it is a Swift symbol.
  public var demangled: String {
    guard name.hasPrefix("$s") || name.hasPrefix("_T") else { return name }
    return name.withCString { pointer in
      guard let text = mv_demangle(pointer, strlen(pointer)) else { return name }
      defer { free(text) }
      return String(cString: text)
    }
  }
}
