import Foundation

/// The path of the executable `name` that `swift build` put beside the running test binary.
///
/// `swift build --build-tests` (what `make test` runs) builds every executable
/// of the package into the folder that holds the test binary, so tests that
/// run `leaklab` or a tool find it there without depending on its target.
///
/// ```swift
/// let leaklab = builtExecutable(named: "leaklab")
/// let session = try TmuxSession(command: [leaklab, "--version"])
/// ```
public func builtExecutable(named name: String) -> String {
  let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  var directory = testBinary.deletingLastPathComponent()
  // On platforms with bundles the test binary sits inside `X.xctest/Contents/MacOS`.
  while directory.path != "/",
    !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path)
  {
    directory.deleteLastPathComponent()
  }
  if directory.path == "/" { directory = testBinary.deletingLastPathComponent() }
  return directory.appendingPathComponent(name).path
}
