import MemoryView

extension HeapModel {
  /// The Swift runtime's metadata memory: what its caches of type metadata
  /// hold (`GenericMetadataCache`s behind each generic type's instantiation
  /// cache, `…MI`, and each conformance's, `…MK`; the conformance, tuple,
  /// function and existential caches that are C++ statics of
  /// `libswiftCore`), and the plain C blocks that
  /// nothing else holds below them. That memory holds metadata, witness
  /// tables and type names, never an instance: a word in it that points at
  /// a Swift object is a stale copy left in a reused block (measured: word
  /// 10 of an 88-byte node below `WritableKeyPath`'s instantiation cache
  /// pointing at a test's scheduler), so it never takes the room an
  /// object's strong count leaves (see ``admitUncountedReferences()``).
  ///
  /// A block joins only when every word that holds it is in metadata
  /// memory (or in a thread's stack or registers, where the runtime's own
  /// lookups leave copies): a program's buffer that a stale word of a cache
  /// points at stays the program's.
  func markMetadataMemory() {
    var pending: [Int] = []
    for position in 0..<rootTargets.count {
      guard case .global = rootKinds[Int(rootOrigins.base![position])],
        isMetadataCacheWord(rootAddresses.base![position])
      else { continue }
      metadataRootPositions.insert(position)
      let target = Int(rootTargets.base![position] & ~Self.interiorBit)
      if !kind(of: target).isSwiftObject { pending.append(target) }
    }
    while let block = pending.popLast() {
      guard !metadataBlocks.contains(block), isHeldOnlyByMetadata(block) else { continue }
      metadataBlocks.insert(block)
      for edge in edges(from: block) where !kind(of: edge.target).isSwiftObject {
        pending.append(edge.target)
      }
    }
  }

  /// Whether every word that holds `block` is in metadata memory, a
  /// thread's stack or registers. A word that points inside the block holds
  /// no buffer of the program's: it is the address of a metadata record in
  /// one of the runtime's 16 KB allocation pages, which every kind of memory
  /// keeps (measured: a test's closure context held a page that way, and the
  /// page's stale words were a path no word of the program's makes). The
  /// block may read as a C object: the type-name cache's table, whose first
  /// key is a type's metadata in an image, does whenever its first bucket
  /// is taken (its empty buckets' stale words then made owners, see
  /// ``cost(of:)``).
  private func isHeldOnlyByMetadata(_ block: Int) -> Bool {
    guard rootBlocks[block] == nil, kind(of: block) == .mallocBlock || kind(of: block) == .cObject else {
      return false
    }
    let start = Int(inStart.base![block])
    let end = Int(inStart.base![block + 1])
    for slot in start..<end {
      let source = inSources.base![slot]
      guard source & Self.interiorBit != 0 || metadataBlocks.contains(Int(source)) else { return false }
    }
    for position in rootPositions(of: block)
    where !metadataRootPositions.contains(position) && rootTargets.base![position] & Self.interiorBit == 0 {
      switch rootKinds[Int(rootOrigins.base![position])] {
      case .stack, .register, .unboundedStack, .callerStack: continue
      case .global, .threadLocal, .registered, .mapping: return false
      }
    }
    return true
  }

  /// Whether the global word at `address` is in a cache of the Swift
  /// runtime's: a type's metadata instantiation cache (`$s…MI`), a
  /// conformance's witness table instantiation cache (`$s…MK`), a type's
  /// metadata lazy or demangling cache variable (`$s…Ml`, `$s…MD`), a
  /// witness table's lazy cache variable (`$s…WL`), in any image; or a static of
  /// `libswiftCore`'s C++ runtime (its Swift globals and the empty
  /// collection singletons are the library's own values, not caches).
  func isMetadataCacheWord(_ address: UInt) -> Bool {
    guard let image = snapshot.images.image(containing: address) else { return false }
    // An image with no Swift reflection sections has no Swift cache: its
    // symbols are not read (libc's and libstdc++'s tables were most of
    // this step's 3.6 ms).
    if let swiftImages = types.swiftImagePaths, !swiftImages.contains(image.path) { return false }
    guard let symbol = image.symbol(containing: address, kinds: .object) else { return false }
    if symbol.name.hasPrefix("$s") { return Self.metadataCacheSuffixes.contains(symbol.name.suffix(2)) }
    return image.name.hasPrefix("libswiftCore.") && !symbol.name.hasPrefix("_swiftEmpty")
  }

  /// The mangling suffixes of the runtime's cache variables (see ``isMetadataCacheWord(_:)``).
  static let metadataCacheSuffixes: Set<Substring> = ["MI", "MK", "Ml", "MD", "WL"]
}
