/// The version `leaklab --version` prints.
public enum LeakLabVersion {
  /// The current version.
  public static let current = "0.1.0"
}
