import HeapModel
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// Checks that a process is a Swift program running the same Swift runtime
/// as LeakLab: Remote Mirror reads metadata as its own runtime lays it out.
enum RuntimeCheck {
  static let runtimeName = "libswiftCore.so"

  /// Throws ``ProcessLeaksError/notSwift(_:)`` or
  /// ``ProcessLeaksError/differentRuntime(target:ours:)``.
  static func verify(images: ImageList, executable: String) throws(ProcessLeaksError) {
    guard let theirs = images.image(named: runtimeName) else {
      // A program linked with the static standard library carries the runtime
      // inside; then the images' reflection sections tell it is Swift.
      let hasSwift = images.images.contains {
        ReflectionSections.read(path: $0.path)?.hasFieldMetadata == true
      }
      if !hasSwift { throw .notSwift(executable) }
      return
    }
    guard let ours = ownRuntime else { return }
    if LeakAnalysis.sameFile(theirs.path, ours.path) { return }
    if let theirID = theirs.buildID, let ourID = ours.buildID, theirID == ourID { return }
    throw .differentRuntime(target: theirs.path, ours: ours.path)
  }

  /// The runtime image LeakLab itself runs with.
  static let ownRuntime: LoadedImage? = {
    ImageList.ofThisProcess()?.image(named: runtimeName)
  }()
}
