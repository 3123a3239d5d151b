import CMemoryView
import MemoryView

/// Names memory blocks that are not Swift objects, and CoreFoundation
/// objects behind Swift's generic bridge class.
enum HeapBlockNames {
  /// `Block (malloc block, 56 B)` for a block whose first word is a known
  /// runtime's type (a Block's isa, a Dispatch vtable, a Swift task's
  /// metadata), `malloc block, 96 B (symbol)` for another image address,
  /// else `malloc block, 96 B`.
  static func info(for block: MallocBlock, in snapshot: ProcessSnapshot) -> ObjectInfo {
    var name = "malloc block, \(block.size) B"
    var typeName = "malloc block"
    if let first = snapshot.memory.word(at: block.address),
      let image = snapshot.images.image(containing: first),
      let symbol = image.symbol(containing: first)
    {
      if let known = runtimeType(symbol: symbol.name) {
        typeName = known
        name = "\(known) (\(name))"
      } else {
        name += " (\(TypeNames.unqualified(symbol.demangled)))"
      }
    }
    return ObjectInfo(address: block.address, typeName: typeName, name: name, kind: .mallocBlock)
  }

  /// A readable name for the type word of a C runtime's object.
  static func runtimeType(symbol: String) -> String? {
    switch symbol {
    case "_NSConcreteMallocBlock", "_NSConcreteStackBlock", "_NSConcreteGlobalBlock": return "Block"
    case "_dispatch_continuation_vtables": return "dispatch continuation"
    case "_ZL16taskHeapMetadata": return "Swift task"
    case "_ZN5swift25TaskAllocatorSlabMetadataE": return "Swift task frames"
    default: break
    }
    if symbol.hasPrefix("__OS_dispatch_"), symbol.hasSuffix("_vtable") {
      let kind = symbol.dropFirst("__OS_dispatch_".count).dropLast("_vtable".count)
      return "dispatch " + kind.split(separator: "_").joined(separator: " ")
    }
    if symbol.hasPrefix("_dispatch_source_type_") {
      return "dispatch \(symbol.dropFirst("_dispatch_source_type_".count)) source state"
    }
    return nil
  }

  /// The CoreFoundation type (`CFRunLoopTimer`) of the object at `address`,
  /// which Swift sees as `__NSCFType`.
  static func coreFoundationTypeName(of address: UInt) -> String? {
    var buffer = [CChar](repeating: 0, count: 96)
    let length = mv_coreFoundationTypeName(address, &buffer, buffer.count)
    guard length > 0 else { return nil }
    return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
