import CHeapModel
import CRemoteMirror
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// The one reflection layer: the layouts of Swift heap objects, read with the
/// runtime's Remote Mirror library from this process, from a frozen copy of
/// it, or from another process.
///
/// A layout says where an object's references are (fields, captures,
/// collection elements), how strong each is, and which bytes no metadata
/// describes. Layouts are computed once per metadata address and cached;
/// everything that reads Swift objects (the heap model, the live explainer)
/// asks here.
///
/// Not thread-safe, like the library's context: callers serialize.
///
/// ```swift
/// let types = try SwiftTypes(reading: snapshot)
/// if let layout = types.layout(metadata: firstWord, instance: address) { print(layout.typeName) }
/// ```
package final class SwiftTypes {
  /// The library's context (remade by ``withContextReleased(_:)``).
  package private(set) var context: RMContextRef
  let reader: Reader
  /// Layouts by metadata address; `nil` entries remember metadata that is not usable.
  var layouts: [UInt: HeapLayout?] = [:]
  /// The size of a task's fixed part, where its fragments start (nil when
  /// the process has no concurrency library, or this process is read in place).
  var asyncTaskSize: Int?
  /// References inside value types, by type reference.
  var valueSlots: [RMTypeRef: ValueSlots] = [:]
  /// Names by type reference.
  var typeRefNames: [RMTypeRef: String] = [:]
  /// Copies of another process's reflection sections: the library keeps
  /// pointers into them for its whole life.
  private var sectionCopies: [UnsafeMutableRawBufferPointer] = []
  /// The paths of another process's images that hold Swift reflection
  /// sections (nil for this process, read in place): the others hold no
  /// Swift metadata, nor the runtime's caches of it.
  package private(set) var swiftImagePaths: Set<String>?

  /// The pages a context reading another process keeps (`rm_createContextReading`).
  private let pageCache: ScratchBuffer<UInt8>?

  /// How the layer reads memory.
  enum Reader {
    /// This process: straight loads, or copies through `process_vm_readv`.
    case own(safe: Bool)
    /// Another process (or a frozen copy of ours), always by copy.
    case process(ProcessMemory)
  }

  /// The layer over this process's own memory: `safeReads` copies every read
  /// (an object dying meanwhile cannot fault it), else loads directly.
  package init?(ownProcess safeReads: Bool) {
    pageCache = nil
    guard let context = rm_createContext(safeReads) else { return nil }
    self.context = context
    reader = .own(safe: safeReads)
  }

  /// The layer over the process `snapshot` read: a frozen copy of this one
  /// (its images are ours, at the same addresses), or another process, whose
  /// images' reflection sections are found in their files.
  package init(reading snapshot: ProcessSnapshot) throws(SwiftTypesError) {
    // Scratch memory, never malloc's: a later frozen copy of this process
    // must not read the target's words in it as this process's.
    let pageCache = ScratchBuffer<UInt8>(capacity: rm_pageCacheSize())
    self.pageCache = pageCache
    guard let context = rm_createContextReading(snapshot.pid, pageCache.base) else {
      throw SwiftTypesError(description: "the Remote Mirror library refused to make a context")
    }
    self.context = context
    reader = .process(snapshot.memory)
    asyncTaskSize = snapshot.asyncTaskSize.map { Int($0) }
    if snapshot.isOwnProcess {
      rm_addOwnImages(context)
    } else {
      let found = snapshot.images.images.compactMap { image in
        ReflectionSections.read(path: image.path).map { (image: image, sections: $0) }
      }
      swiftImagePaths = Set(found.filter { $0.sections.span != nil }.map(\.image.path))
      let executable = snapshot.images.images.first?.path
      for (image, sections) in Self.searchOrder(found, executable: executable) {
        addImage(image, sections: sections, memory: snapshot.memory)
      }
    }
  }

  /// The order in which to give the library another process's images.
  /// It fills its cache of field descriptors one image at a time, in the
  /// order they were added, until it meets the type asked for (this API
  /// gives it no module names to go to the right image first): the
  /// executable and the standard library, whose types every
  /// heap holds, come first; then the others from the smallest field
  /// section up, so that a type of a small library does not cost the
  /// descriptors of the large ones (a regex library's, Foundation's).
  static func searchOrder(
    _ images: [(image: LoadedImage, sections: ReflectionSections)], executable: String?
  ) -> [(image: LoadedImage, sections: ReflectionSections)] {
    let rank = { (image: LoadedImage) -> Int in
      image.path == executable ? 0 : image.name.hasPrefix("libswiftCore.") ? 1 : 2
    }
    return images.enumerated().sorted { left, right in
      let (leftRank, rightRank) = (rank(left.element.image), rank(right.element.image))
      if leftRank != rightRank { return leftRank < rightRank }
      let (leftSize, rightSize) = (left.element.sections.sizes[0], right.element.sections.sizes[0])
      return leftSize != rightSize ? leftSize < rightSize : left.offset < right.offset
    }.map(\.element)
  }

  deinit {
    swift_reflection_destroyReflectionContext(context)
    for copy in sectionCopies { copy.deallocate() }
  }

  /// Runs `body` with the library's context and everything cached from it
  /// freed, then makes a new context: memory allocated meanwhile (a frozen
  /// copy of this process, forked in `body`) holds none of the library's
  /// buffers, whose stale words would otherwise be read as the program's.
  /// This process's layer only; another process's keeps its context.
  package func withContextReleased<Result>(_ body: () throws -> Result) rethrows -> Result {
    guard case .own(let safe) = reader else { return try body() }
    swift_reflection_destroyReflectionContext(context)
    layouts = [:]
    valueSlots = [:]
    typeRefNames = [:]
    defer {
      // The library made a context from the same arguments before; it
      // returns none only for a pointer size it does not know.
      guard let fresh = rm_createContext(safe) else {
        preconditionFailure("Remote Mirror refused a context it made before")
      }
      context = fresh
    }
    return try body()
  }

  /// Registers `image` of another process: its reflection sections, found
  /// in its file, copied from the process at their loaded addresses.
  private func addImage(_ image: LoadedImage, sections: ReflectionSections, memory: ProcessMemory) {
    guard sections.hasFieldMetadata, let span = sections.span, span.count < 1 << 28 else { return }
    let remoteStart = UInt(span.lowerBound) &+ image.bias
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
      return
    }
    sectionCopies.append(copy)
    let starts = sections.starts.map { $0 == 0 ? 0 : $0 &+ UInt64(image.bias) }
    rm_addReflectionSections(
      context, copy.baseAddress, UInt64(remoteStart), UInt64(copy.count), starts, sections.sizes)
  }

  // MARK: Reads

  /// Copies up to `count` bytes at `address` into `buffer`; returns the bytes copied.
  package func read(_ address: UInt, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    guard count > 0 else { return 0 }
    switch reader {
    case .own(let safe): return rm_read(address, buffer, count, safe)
    case .process(let memory):
      return memory.read(address, into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
    }
  }

  /// The word at `address`, or nil if it cannot be read.
  package func word(at address: UInt) -> UInt? {
    var value: UInt = 0
    let copied = withUnsafeMutableBytes(of: &value) { read(address, into: $0.baseAddress!, count: 8) }
    return copied == 8 ? value : nil
  }

  /// The 32-bit value at `address`, or nil.
  func uint32(at address: UInt) -> UInt32? {
    var value: UInt32 = 0
    let copied = withUnsafeMutableBytes(of: &value) { read(address, into: $0.baseAddress!, count: 4) }
    return copied == 4 ? value : nil
  }

  /// Whether `address` can be the start of a heap object.
  package static func isPlausibleObject(_ address: UInt) -> Bool { hm_isPlausibleObject(address) }

  /// The layout of the object at `address`, if it is a heap object Remote Mirror understands.
  package func layout(ofObjectAt address: UInt) -> HeapLayout? {
    guard Self.isPlausibleObject(address), let metadata = word(at: address), Self.isPlausibleObject(metadata)
    else { return nil }
    return layout(metadata: metadata, instance: address)
  }

  // MARK: Names

  /// The demangled, module-qualified name of `typeRef` (empty if unknown).
  package func name(of typeRef: RMTypeRef) -> String {
    guard typeRef != 0 else { return "" }
    if let known = typeRefNames[typeRef] { return known }
    var name = ""
    if let copy = swift_reflection_copyNameForTypeRef(context, typeRef, false) {
      name = String(cString: copy)
      free(copy)
    }
    typeRefNames[typeRef] = name
    return name
  }

  /// The type's name as a developer writes it (`FeedService`), and its
  /// module-qualified name (`Feed.FeedService`), for class metadata: from
  /// the library's name of the type, never from the runtime (the metadata
  /// may be another process's, or memory that changed while it was read).
  func names(ofClass metadata: UInt) -> (name: String, qualified: String?) {
    let qualified = name(of: swift_reflection_typeRefForMetadata(context, metadata))
    guard !qualified.isEmpty else { return ("heap object", nil) }
    return (TypeNames.simple(qualified), qualified)
  }
}

/// Why a reflection layer could not be made.
package struct SwiftTypesError: Error, Sendable, CustomStringConvertible {
  package var description: String
}
