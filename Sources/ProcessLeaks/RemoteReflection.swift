import CProcessLeaks
import CRemoteMirror
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// The runtime's Remote Mirror library reading another process: what the
/// library was made for (out-of-process reflection).
///
/// Each Swift image of the target is registered with the reflection sections
/// found in its file (``ReflectionSections``) and their bytes copied from the
/// target at their loaded addresses; every other read the library makes goes
/// to the target through `process_vm_readv`. Not thread-safe, like the
/// library's context.
final class RemoteReflection {
  let memory: ProcessMemory
  let context: OpaquePointer
  /// Copies of each registered image's reflection sections: the library
  /// keeps pointers into them for its whole life.
  private var copies: [UnsafeMutableRawBufferPointer] = []
  /// Layouts by metadata address (nil: not a heap object the library knows).
  var layouts: [UInt: BlockLayout?] = [:]
  /// Value-type slots by type reference.
  var valueSlots: [UInt64: [FieldSlot]] = [:]
  /// Type names by type reference.
  var typeNames: [UInt64: String] = [:]

  /// A context over process `pid`, or nil if the library cannot make one.
  init?(pid: Int32) {
    guard let context = pl_createRemoteContext(pid) else { return nil }
    self.context = context
    memory = ProcessMemory(pid: pid)
  }

  deinit {
    pl_destroyRemoteContext(context)
    for copy in copies { copy.deallocate() }
  }

  /// Registers the image loaded from `path` at `loadBias`; returns whether it
  /// has Swift type metadata.
  @discardableResult
  func addImage(path: String, loadBias: UInt) -> Bool {
    guard let sections = ReflectionSections.read(path: path), sections.hasFieldMetadata,
      let span = sections.span, span.count < 1 << 28
    else { return false }
    let remoteStart = UInt(span.lowerBound) &+ loadBias
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(span.count), alignment: 16)
    var copied = 0
    while copied < copy.count {
      let chunk = min(copy.count - copied, 32 << 20)
      let got = memory.read(
        remoteStart + UInt(copied),
        into: UnsafeMutableRawBufferPointer(rebasing: copy[copied..<copied + chunk]))
      guard got > 0 else { break }
      copied += got
    }
    guard copied == copy.count else {
      copy.deallocate()
      return false
    }
    copies.append(copy)
    let starts = sections.starts.map { $0 == 0 ? 0 : $0 &+ UInt64(loadBias) }
    pl_addReflectionSections(
      context, copy.baseAddress, UInt64(remoteStart), UInt64(copy.count), starts, sections.sizes)
    return true
  }

  // MARK: Names

  /// The demangled, module-qualified name of `typeRef` (empty if unknown).
  func qualifiedName(of typeRef: UInt64) -> String {
    guard typeRef != 0 else { return "" }
    if let cached = typeNames[typeRef] { return cached }
    var name = ""
    if let copy = swift_reflection_copyNameForTypeRef(context, typeRef, false) {
      name = String(cString: copy)
      free(copy)
    }
    typeNames[typeRef] = name
    return name
  }
}
