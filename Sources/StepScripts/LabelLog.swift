/// The summary label of each frame the app draws after a key, as a line of a
/// file: how the terminal step driver reads "the label after the step" on a
/// machine too busy to capture the screen before the detector's grace delay
/// ends.
///
/// With `LEAKLAB_LABEL_LOG` set to a path, the app appends one line per frame
/// whose keys or label changed: the number of keys it has handled (resizes
/// and mouse events are not keys) and the label, separated by a tab. The
/// first line whose count reaches the keys a script sent is the frame drawn
/// right after its last key: what a person sees when the key lands.
///
/// ```swift
/// LabelLog.line(keys: 3, label: "No issues detected")  // "3\tNo issues detected\n"
/// LabelLog.label(afterKeys: 3, in: "2\tNo issues detected\n3\tLeaked: A#1\n")  // "Leaked: A#1"
/// ```
public enum LabelLog {
  /// The environment variable that names the file.
  public static let environmentVariable = "LEAKLAB_LABEL_LOG"

  /// The line for a frame drawn after `keys` keys, showing `label`.
  public static func line(keys: Int, label: String) -> String {
    "\(keys)\t\(label)\n"
  }

  /// The label of the first frame drawn after `keys` keys, in the log's
  /// `text`; nil when no frame after them is logged yet.
  public static func label(afterKeys keys: Int, in text: String) -> String? {
    for line in text.split(separator: "\n") {
      guard let tab = line.firstIndex(of: "\t"), let count = Int(line[..<tab]) else { continue }
      if count >= keys { return String(line[line.index(after: tab)...]) }
    }
    return nil
  }
}
