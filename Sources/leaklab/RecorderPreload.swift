import Foundation
import ProcessLeaks

#if canImport(Glibc)
  import Glibc
#endif

/// `--stacks` for the app and `leaklab explain`: runs this command again
/// with the allocation recorder preloaded, so each leak says where it was
/// allocated (docs/app.md#where-a-leak-was-allocated).
enum RecorderPreload {
  /// Set on the command run again, so a recorder that does not load is said once, not retried.
  static let marker = "LEAKLAB_RECORDER_RELAUNCHED"

  /// Executes this command again with the recorder in `LD_PRELOAD`, unless it is loaded already.
  /// Returns only when it is loaded, or when it cannot be (said on stderr).
  static func relaunchRecording() {
    guard !OwnAllocationSites.isRecording else { return }
    guard getenv(marker) == nil else {
      CommandOutput.error("the allocation recorder did not load: no allocation sites")
      return
    }
    let preload: String
    do {
      preload = try AllocationRecorder.preloadList()
    } catch {
      CommandOutput.error("\(error.description)")
      return
    }
    setenv(marker, "1", 1)
    setenv("LD_PRELOAD", preload, 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    CommandOutput.error("cannot run again with the allocation recorder: \(String(cString: strerror(errno)))")
  }
}
