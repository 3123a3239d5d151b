#if canImport(Glibc)
  import Glibc
#endif

/// Finds the file a program name means, as a shell does.
enum ExecutableLookup {
  /// `name` itself when it contains a `/`, else the first executable file
  /// called `name` in a directory of `path`; nil when there is none.
  static func resolve(_ name: String, path: String? = getenv("PATH").map { String(cString: $0) }) -> String? {
    guard !name.isEmpty else { return nil }
    if name.contains("/") { return isExecutableFile(name) ? name : nil }
    for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(
      separator: ":", omittingEmptySubsequences: false)
    {
      let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
      if isExecutableFile(candidate) { return candidate }
    }
    return nil
  }

  /// Why `name` cannot be run, for a name ``resolve(_:path:)`` gives nil
  /// for: `it is a directory`, `not executable`, `no such file` (a path), or
  /// `not found in PATH` (a bare name).
  static func whyNot(_ name: String) -> String {
    guard name.contains("/") else { return name.isEmpty ? "no program named" : "not found in PATH" }
    var status = stat()
    guard stat(name, &status) == 0 else { return "no such file" }
    if status.st_mode & S_IFMT == S_IFDIR { return "it is a directory" }
    return status.st_mode & S_IFMT == S_IFREG ? "not executable" : "not a regular file"
  }

  private static func isExecutableFile(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
    return access(path, X_OK) == 0
  }
}
