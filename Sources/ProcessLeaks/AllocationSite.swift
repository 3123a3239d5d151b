import HeapModel

/// Where a block was allocated: the whole stack, named, and the frame a
/// developer looks for — the first in the program's own code.
///
/// ```swift
/// if let site = block.allocation {
///   print(site.summary)   // allocated in makeSession() at Sources/App/main.swift:42, called from …
/// }
/// ```
public struct AllocationSite: Sendable, Hashable {
  /// Every frame, innermost first (the allocator's caller first).
  public var frames: [SourceFrame]

  /// Creates the site of a stack.
  public init(frames: [SourceFrame]) {
    self.frames = frames
  }

  /// Functions that only pass an allocation on (the allocator's own wrappers).
  static let allocatorFunctions: Set<String> = [
    "swift_slowAlloc", "swift_allocObject", "swift_allocBox", "swift_task_alloc", "swift_job_allocate",
    "operator new(unsigned long)", "_Znwm", "_Znam", "_ZnwmSt11align_val_t", "strdup", "__strdup", "strndup",
    "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
  ]

  /// The index of the first frame of the program's own code, past the
  /// compiler's thunks and allocating entry points of its types.
  /// Where debug information gives lines, only a frame with a line counts
  /// (a frame without one is compiler-made or a dependency's).
  public var programFrameIndex: Int? {
    if let index = frames.indices.first(where: { frames[$0].isProgramCode && frames[$0].line != nil }) {
      return index
    }
    guard !frames.contains(where: { $0.isInExecutable && $0.line != nil }) else { return nil }
    return frames.indices.first { frames[$0].isProgramCode && !frames[$0].isCompilerMade }
  }

  /// The frame where the program allocated the block, else nil.
  public var programFrame: SourceFrame? { programFrameIndex.map { frames[$0] } }

  /// The program's frame that called ``programFrame``, when there is one.
  public var programCaller: SourceFrame? {
    guard let index = programFrameIndex else { return nil }
    let callers = frames[(index + 1)...]
    return callers.first { $0.isProgramCode && $0.line != nil }
      ?? callers.first { $0.isProgramCode && !$0.isCompilerMade }
  }

  /// The function that called the allocator (`_dispatch_continuation_alloc_from_heap`).
  public var allocatingFunction: String? {
    frames.first { !Self.allocatorFunctions.contains($0.function) && $0.function != "?" }?.function
  }

  /// `allocated in leakSession(leaky:) at …/main.swift:45, called from main at …/main.swift:82`;
  /// without a frame of the program's, the function that called the allocator.
  public var summary: String {
    guard programFrame != nil, let caller = programCaller else { return headline }
    return "\(headline), called from \(caller.description)"
  }

  /// ``summary`` without the caller: `allocated in leakSession(leaky:) at …/main.swift:45`.
  public var headline: String {
    guard let frame = programFrame else {
      if let located = frames.first(where: { $0.line != nil }) {
        return "allocated in \(located.description) (library code)"
      }
      return allocatingFunction.map { "allocated in \($0) (library code)" }
        ?? "allocated where no frame is named"
    }
    return "allocated in \(frame.description)"
  }

  /// Compiler-made entry points whose line is the type's, not the caller's:
  /// `Session.__allocating_init()`, thunks, forwarders.
  static func isCompilerMade(_ function: String) -> Bool {
    function.containsName("__allocating_init") || function.containsName("@callee_guaranteed")
      || function.containsName("@escaping") || function.containsName("thunk")
      || ["reabstraction", "partial apply", "merged ", "protocol witness", "outlined ", "implicit closure"]
        .contains {
          function.hasPrefix($0)
        }
  }
}

extension LeakGraph {
  /// Gives each leaked block the site that allocated it, from the stacks
  /// `model` carries (see ``AllocationRecorder``); every distinct frame of
  /// the leaked blocks' stacks is symbolized once.
  public mutating func attachAllocationSites(from model: HeapModel, symbolizer: StackSymbolizer) {
    guard let stacks = model.allocationStacks else { return }
    var stackOfBlock: [Int?] = []
    for block in blocks {
      let index = model.block(containing: block.address)
      stackOfBlock.append(index.flatMap { stacks.stack(of: $0) })
    }
    let sites = symbolizer.sites(of: Set(stackOfBlock.compactMap { $0 }), in: stacks)
    for (position, stack) in stackOfBlock.enumerated() {
      guard let stack else { continue }
      blocks[position].allocation = sites[stack]
    }
  }
}

extension LeakAnalysis {
  /// Reads the recorder's stacks into `model` and names the leaked blocks'
  /// sites (the `stacks` phase: reading and symbolizing).
  static func attachSites(to graph: inout LeakGraph, model: HeapModel, phase: (String) -> Void) {
    if let stacks = AllocationRecorder.stacks(in: model) { model.attach(stacks) }
    let symbolizer = StackSymbolizer(
      images: model.snapshot.images, executable: executable(pid: model.snapshot.pid))
    graph.attachAllocationSites(from: model, symbolizer: symbolizer)
    phase("stacks")
  }
}

extension AllocationSite {
  /// A site in JSON (`objects[].allocation` of `leaklab leaks --json`,
  /// `types[].allocation` of `leaklab watch`'s report): the summary and the
  /// whole stack.
  public struct Document: Codable, Sendable, Hashable {
    /// The text report's line.
    public var summary: String
    /// The index in `frames` of the program's own frame the summary names.
    public var programFrame: Int?
    public var frames: [Frame]

    public struct Frame: Codable, Sendable, Hashable {
      public var address: String
      public var function: String
      public var image: String
      public var file: String?
      public var line: Int?
      public var programCode: Bool
    }

    public init(_ site: AllocationSite) {
      summary = site.summary
      programFrame = site.programFrameIndex
      frames = site.frames.map {
        Frame(
          address: hex($0.address), function: $0.function, image: $0.image, file: $0.file, line: $0.line,
          programCode: $0.isProgramCode)
      }
    }
  }
}
