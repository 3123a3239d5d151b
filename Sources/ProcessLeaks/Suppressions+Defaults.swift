extension Suppressions {
  /// Known leaks of the libraries every Swift program on Linux uses,
  /// applied unless `--no-default-suppressions` is given.
  ///
  /// ```swift
  /// let report = LeakReport(graph: graph, suppressions: .libraryDefaults)
  /// ```
  public static let libraryDefaults: Suppressions = {
    // The text is fixed and parses; a failure here is a bug caught by the tests.
    (try? parse(libraryDefaultsText, file: "default suppressions")) ?? Suppressions()
  }()

  /// The default rules in the suppressions file format.
  public static let libraryDefaultsText = """
    # swift-corelibs-foundation retains every Timer into its CF timer's context
    # and never releases it: each Timer leaks itself and its CF timer on Linux,
    # even when invalidated (a library leak, not yours).
    type Foundation.Timer
    """
}
