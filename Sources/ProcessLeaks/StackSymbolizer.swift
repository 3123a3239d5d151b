import CMemoryView
import Foundation
import HeapModel
import LeakLabLocking
import MemoryView

/// One frame of an allocation stack, named: the function, and the file and
/// line when the image has debug information.
public struct SourceFrame: Sendable, Hashable {
  /// The return address (the innermost frame's: the call into the allocator).
  public var address: UInt
  /// The function, as a developer writes it (`Session.init()`,
  /// `closure in leakListener(leaky:)`, `_dispatch_continuation_alloc_from_heap`);
  /// `?` when nothing names it.
  public let function: String
  /// The image's file name (`libdispatch.so`, the executable's name).
  public var image: String
  /// The source file and line of the call, from the debug information.
  public var file: String?
  public var line: Int?
  /// Whether the frame is the program's own code: in the executable, and
  /// not in a package it depends on (`.build/checkouts/…`).
  public var isProgramCode: Bool
  /// Whether the frame is in the executable (the program's code or a package linked into it).
  public var isInExecutable = false
  /// Whether the function is made by the compiler (a thunk, a witness, an
  /// allocating entry point): its line is not the caller's.
  public let isCompilerMade: Bool

  /// The current directory, with a trailing `/`.
  static let currentDirectory = FileManager.default.currentDirectoryPath + "/"

  /// Creates a frame.
  public init(
    address: UInt, function: String, image: String, file: String? = nil, line: Int? = nil,
    isProgramCode: Bool, isInExecutable: Bool = false
  ) {
    self.address = address
    self.function = function
    self.image = image
    self.file = file
    self.line = line
    self.isProgramCode = isProgramCode
    self.isInExecutable = isInExecutable
    isCompilerMade = AllocationSite.isCompilerMade(function)
  }

  /// `Session.init() at Sources/App/Session.swift:42` (the file relative to
  /// the current directory when it is inside it), or `… in libdispatch.so`.
  public var description: String {
    guard var file, let line else { return "\(function) in \(image)" }
    if file.hasPrefix(Self.currentDirectory) { file.removeFirst(Self.currentDirectory.count) }
    return "\(function) at \(file):\(line)"
  }
}

/// Names code addresses of a stopped process: functions (demangled) from the
/// images' debug information or symbol tables, files and lines from their
/// debug information.
///
/// Every distinct address is named once. The toolchain's `llvm-symbolizer`
/// reads the debug information, one process for the whole batch; without it
/// (or where it names nothing) the image's symbol table names the function.
///
/// ```swift
/// let symbolizer = StackSymbolizer(images: model.snapshot.images, executable: path)
/// let frames = symbolizer.frames(for: [0x55d1c2a0f3b2])
/// print(frames[0x55d1c2a0f3b2]!)   // leakSession(leaky:) at …/main.swift:45
/// ```
public struct StackSymbolizer {
  let images: ImageList
  let executable: String
  /// The `llvm-symbolizer` to run, or nil to use the symbol tables only.
  let tool: String?
  /// The frames named by earlier calls, when they are kept.
  let cache: Cache?

  /// A symbolizer for a process with `images` whose executable is
  /// `executable`; with a `cache`, what one call names the next does not name again.
  public init(
    images: ImageList, executable: String, tool: String? = StackSymbolizer.findTool(), cache: Cache? = nil
  ) {
    self.images = images
    self.executable = executable
    self.tool = tool
    self.cache = cache
  }

  /// Frames already named, by address, kept across calls for one process
  /// (`leaklab watch` names the same stacks at every snapshot). An address
  /// keeps its name while its image stays mapped where it is.
  public final class Cache: Sendable {
    private let named = Locked<[UInt: [SourceFrame]]>([:])

    public init() {}

    /// The known frames of `addresses`, and the addresses not known yet.
    func look(up addresses: [UInt]) -> (known: [UInt: [SourceFrame]], unknown: [UInt]) {
      named.withLock { named in
        var known: [UInt: [SourceFrame]] = [:]
        var unknown: [UInt] = []
        for address in addresses {
          if let frames = named[address] { known[address] = frames } else { unknown.append(address) }
        }
        return (known, unknown)
      }
    }

    func keep(_ frames: [UInt: [SourceFrame]]) {
      named.withLock { $0.merge(frames) { _, new in new } }
    }
  }

  /// `$LEAKLAB_SYMBOLIZER`, else `llvm-symbolizer` beside `swift` in `PATH`, else the one in `PATH`.
  public static func findTool() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let tool = environment["LEAKLAB_SYMBOLIZER"] { return tool.isEmpty ? nil : tool }
    if let swift = ExecutableLookup.resolve("swift") {
      let resolved = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
      let beside = resolved.deletingLastPathComponent().appendingPathComponent("llvm-symbolizer").path
      if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    }
    return ExecutableLookup.resolve("llvm-symbolizer")
  }

  /// The frames of each address (more than one where the compiler inlined
  /// calls: the innermost first), every address named once.
  public func frames(for addresses: some Sequence<UInt>) -> [UInt: [SourceFrame]] {
    let all = Array(addresses)
    var distinct = Set<UInt>(minimumCapacity: all.count)
    distinct.formUnion(all)
    guard let cache else { return name(Array(distinct)) }
    var (known, unknown) = cache.look(up: Array(distinct))
    let named = name(unknown)
    cache.keep(named)
    known.merge(named) { _, new in new }
    return known
  }

  /// The frames of each of the `distinct` addresses.
  private func name(_ distinct: [UInt]) -> [UInt: [SourceFrame]] {
    guard !distinct.isEmpty else { return [:] }
    var located: [(address: UInt, image: LoadedImage)] = []
    var result: [UInt: [SourceFrame]] = [:]
    for address in distinct {
      guard let image = images.image(containing: address) else {
        result[address] = [SourceFrame(address: address, function: "?", image: "?", isProgramCode: false)]
        continue
      }
      located.append((address, image))
    }
    var names: [String: String] = [:]
    let named = tool.flatMap { symbolize(located, with: $0, names: &names) } ?? [:]
    // Per image and per file, not per frame: whether it is the executable, its name, whether a dependency's.
    var imageFacts: [String: (name: String, isExecutable: Bool)] = [:]
    var dependencyFiles: [String: Bool] = [:]
    for (address, image) in located {
      let facts: (name: String, isExecutable: Bool)
      if let known = imageFacts[image.path] {
        facts = known
      } else {
        facts = (image.name, LeakAnalysis.sameFile(image.path, executable))
        imageFacts[image.path] = facts
      }
      var frames = named[address] ?? []
      if frames.isEmpty || frames.allSatisfy({ $0.function == "?" }) {
        let symbol = image.symbol(containing: address - 1, kinds: .function)
        let function = symbol.map { Self.readable($0.name, cache: &names) } ?? "?"
        frames = [SourceFrame(address: address, function: function, image: facts.name, isProgramCode: false)]
      }
      for index in frames.indices {
        frames[index].address = address
        frames[index].image = facts.name
        frames[index].isInExecutable = facts.isExecutable
        // Without a line, a compiler-made function (a thunk, a witness) is nobody's code.
        var isProgramCode = facts.isExecutable && !frames[index].isCompilerMade
        if facts.isExecutable, let file = frames[index].file {
          if let known = dependencyFiles[file] {
            isProgramCode = !known
          } else {
            let isDependency = Self.isDependency(file)
            dependencyFiles[file] = isDependency
            isProgramCode = !isDependency
          }
        }
        frames[index].isProgramCode = isProgramCode
      }
      result[address] = frames
    }
    return result
  }

  /// The site of each of the stacks `ids` of `stacks`: every distinct frame
  /// of them named once.
  public func sites(of ids: some Collection<Int>, in stacks: AllocationStacks) -> [Int: AllocationSite] {
    let named = frames(for: ids.flatMap { stacks.frames(of: $0) })
    return Dictionary(
      ids.map { id in (id, AllocationSite(frames: stacks.frames(of: id).flatMap { named[$0] ?? [] })) },
      uniquingKeysWith: { first, _ in first })
  }

  /// The site of one stack (its return addresses, innermost first).
  public func site(of stack: [UInt]) -> AllocationSite {
    let named = frames(for: stack)
    return AllocationSite(frames: stack.flatMap { named[$0] ?? [] })
  }

  /// Whether a source file belongs to a package the program depends on.
  static func isDependency(_ file: String?) -> Bool {
    guard let file else { return false }
    return file.contains("/.build/checkouts/") || file.contains("/SourcePackages/checkouts/")
  }

  /// A symbol's name as a developer writes it: Swift names demangled and
  /// shortened (`closure in Feed.load()`), C names as they are.
  static func readable(_ name: String) -> String {
    guard name.hasPrefix("$s") || name.hasPrefix("_T") || name.hasPrefix("$S") else { return readableC(name) }
    let demangled = name.withCString { pointer -> String? in
      guard let text = mv_demangle(pointer, strlen(pointer)) else { return nil }
      defer { free(text) }
      return String(cString: text)
    }
    guard let demangled else { return name }
    // `closure in variable initialization expression of static Catalogue.feed` is `closure in Catalogue.feed`.
    let simplified = ClosureNames.simplify(demangled)
    guard simplified.containsName("variable initialization expression of ") else { return simplified }
    return simplified.replacing("variable initialization expression of static ", with: "")
      .replacing("variable initialization expression of ", with: "")
  }

  /// ``readable(_:)`` once per name.
  static func readable(_ name: String, cache: inout [String: String]) -> String {
    if let known = cache[name] { return known }
    let readable = readable(name)
    cache[name] = readable
    return readable
  }

  /// A C name as a developer reads it: the top-level code of `main.swift`
  /// (`App_main`, or `main`) is `main`.
  static func readableC(_ name: String) -> String {
    name.hasSuffix("_main") && !name.hasPrefix("_") ? "main" : name
  }

  // MARK: llvm-symbolizer

  /// One run of `llvm-symbolizer` over every address (as an address in its
  /// image's file, minus one: the call, not the instruction after it). Its
  /// answers are read as it writes them and named meanwhile (demangled,
  /// shortened): the two halves of the work run side by side.
  private func symbolize(
    _ located: [(address: UInt, image: LoadedImage)], with tool: String, names: inout [String: String]
  ) -> [UInt: [SourceFrame]]? {
    guard !located.isEmpty else { return [:] }
    let input =
      located.map { "\"\($0.image.path)\" 0x\(String($0.address - 1 - $0.image.bias, radix: 16))" }
      .joined(separator: "\n") + "\n"
    let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-symbolize-\(getpid())-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: inputFile.path, contents: Data(input.utf8)),
      let stdin = FileHandle(forReadingAtPath: inputFile.path)
    else { return nil }
    defer { try? FileManager.default.removeItem(at: inputFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["--functions=linkage", "--inlining"]
    let output = Pipe()
    process.standardInput = stdin
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    var result: [UInt: [SourceFrame]] = [:]
    var answered = 0
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let descriptor = output.fileHandleForReading.fileDescriptor
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count > 0 { pending += chunk[..<count] }
      // The complete answers so far: up to the last empty line (or all, at the end).
      let end = count > 0 ? Self.lastAnswerEnd(in: pending) : pending.endIndex
      if end > 0 {
        for answer in Self.answers(in: String(decoding: pending[..<end], as: UTF8.self)) {
          guard answered < located.count else { break }
          let address = located[answered].address
          result[address] = answer.map { symbol in
            let function = symbol.function == "??" ? "?" : Self.readable(symbol.function, cache: &names)
            return SourceFrame(
              address: address, function: function, image: "", file: symbol.file, line: symbol.line,
              isProgramCode: false)
          }
          answered += 1
        }
        pending.removeSubrange(..<end)
      }
      if count <= 0 { break }
    }
    process.waitUntilExit()
    try? stdin.close()
    guard process.terminationStatus == 0, answered == located.count else { return nil }
    return result
  }

  /// Where the last complete answer of `output` ends: past its last empty
  /// line (`\n\n`), or 0 when no answer is complete.
  static func lastAnswerEnd(in output: [UInt8]) -> Int {
    var index = output.count - 1
    while index > 0 {
      if output[index] == 0x0A && output[index - 1] == 0x0A { return index + 1 }
      index -= 1
    }
    return 0
  }

  /// `llvm-symbolizer`'s answers in its plain output style: per address, a
  /// function line and a `FILE:LINE:COLUMN` line for each inlined frame,
  /// then an empty line. A file the compiler made (`<compiler-generated>`,
  /// `??`) is none; line 0 is none.
  static func answers(in output: String) -> [[(function: String, file: String?, line: Int?)]] {
    var answers: [[(function: String, file: String?, line: Int?)]] = []
    var current: [(function: String, file: String?, line: Int?)] = []
    var function: Substring?
    // By bytes: the separators are ASCII, and the output runs to megabytes.
    let colon = UInt8(ascii: ":")
    for bytes in output.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      let line = Substring(bytes)
      if line.isEmpty {
        if function == nil && !current.isEmpty {
          answers.append(current)
          current = []
        }
        continue
      }
      guard let name = function else {
        function = line
        continue
      }
      function = nil
      // FILE:LINE:COLUMN, the file possibly holding colons.
      var file: String?
      var number: Int?
      if let last = bytes.lastIndex(of: colon), let middle = bytes[..<last].lastIndex(of: colon),
        let parsed = Int(Substring(bytes[bytes.index(after: middle)..<last]))
      {
        let path = Substring(bytes[..<middle])
        if path != "??" && !path.hasSuffix("<compiler-generated>") { file = String(path) }
        number = parsed == 0 ? nil : parsed
      }
      current.append((String(name), file, number))
    }
    if !current.isEmpty { answers.append(current) }
    return answers
  }
}
