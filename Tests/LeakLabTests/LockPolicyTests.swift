import Foundation
import LeakLabTestSupport
import Testing

/// Every lock in the package is `Locked` (a pthread mutex), never
/// `Synchronization.Mutex`: ThreadSanitizer cannot see `Mutex`'s futex
/// locking and reports the values it guards as raced (the TSan lane failed
/// one fresh-clone run in five on an image list behind a `Mutex`). The
/// programs in Tools/ are left out: they stand for users' programs, and a
/// server fixture keeps its state behind a `Mutex` as real servers do.
@Suite struct LockPolicyTests {
  @Test func everyLockIsLocked() throws {
    let mutex = "Mu" + "tex"
    var offenders: [String] = []
    for folder in ["Sources", "Tests", "Scenarios"] {
      let root = packageRoot.appendingPathComponent(folder)
      guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
        continue
      }
      for case let file as URL in files where file.pathExtension == "swift" {
        let text = try String(contentsOf: file, encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
          let code = line.trimmingCharacters(in: .whitespaces)
          guard !code.hasPrefix("//"), code.contains(mutex + "<") || code.contains(mutex + "(") else {
            continue
          }
          offenders.append(
            "\(folder)/\(file.path.components(separatedBy: "/\(folder)/").last ?? ""):\(number + 1)")
        }
      }
    }
    #expect(offenders.isEmpty, "use Locked (LeakLabLocking), not Mutex: \(offenders.joined(separator: ", "))")
  }
}
