/// Addresses inside glibc that its dynamic symbol table does not export,
/// from its `.symtab` or from the detached debug symbols of the same build
/// (`/usr/lib/debug/.build-id/…`, Debian's libc6-dbg), when installed.
struct LibcSymbols {
  var image: LoadedImage?
  /// `main_arena`: the main arena's `malloc_state`.
  var mainArena: UInt?
  /// The random value glibc stores in the second word of every chunk in a tcache.
  var tcacheKey: UInt?

  init(images: ImageList, memory: ProcessMemory) {
    image = images.images.first { $0.name.hasPrefix("libc.so") || $0.name.hasPrefix("libc-2") }
    guard let image else { return }
    var source: LoadedImage? = nil
    if image.address(ofSymbol: "main_arena", kinds: .object) != nil {
      source = image
    } else if let buildID = image.buildID, buildID.count > 2 {
      var debug = image
      debug.path = "/usr/lib/debug/.build-id/\(buildID.prefix(2))/\(buildID.dropFirst(2)).debug"
      if debug.address(ofSymbol: "main_arena", kinds: .object) != nil { source = debug }
    }
    guard let source else { return }
    mainArena = source.address(ofSymbol: "main_arena", kinds: .object)
    if let key = source.address(ofSymbol: "tcache_key", kinds: .object) { tcacheKey = memory.word(at: key) }
  }
}
