import Foundation
import MemoryView

/// Where this process's own objects were allocated, when it runs with the
/// allocation recorder preloaded (`leaklab --stacks`): what the app's
/// explain view shows under a leak.
///
/// Each look-up reads the recorder's table for one block and names its
/// stack (one `llvm-symbolizer` run), so it is for a few objects — the leaks
/// a person looks at — not for a heap.
///
/// ```swift
/// if let sites = OwnAllocationSites() {
///   print(sites.site(of: screen)?.summary ?? "not recorded")
/// }
/// ```
public final class OwnAllocationSites: Sendable {
  let images: ImageList
  let executable: String

  /// Nil when the recorder is not loaded in this process.
  public init?() {
    guard let images = ImageList.ofThisProcess(), images.image(named: AllocationRecorder.libraryName) != nil
    else { return nil }
    self.images = images
    executable = LeakAnalysis.executable(pid: getpid())
  }

  /// The site that allocated `object`, if the recorder saw it.
  public func site(of object: AnyObject) -> AllocationSite? {
    let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    guard let stack = AllocationRecorder.stack(ofBlockAt: address, images: images, memory: .current) else {
      return nil
    }
    return StackSymbolizer(images: images, executable: executable).site(of: stack)
  }

  /// Whether this process runs with the recorder loaded.
  public static var isRecording: Bool {
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), AllocationRecorder.recordSymbol) != nil
  }
}
