/// A message without the path from a true root that the default explainer
/// may append where the expected message has none: in a test process other
/// tests' pending work (a main-queue block holding a scheduler), or a stale
/// word in a library's C memory, can hold a survivor, which is not what the
/// tests comparing messages are about. The rest must match exactly.
public func withoutIncidentalRootPath(_ message: String, expected: [String]) -> String {
  guard !expected.contains(message) else { return message }
  for marker in ["; retained by: held from root: ", "; also held from root: "] {
    guard let range = message.range(of: marker) else { continue }
    let withoutPath = String(message[..<range.lowerBound])
    if expected.contains(withoutPath) { return withoutPath }
  }
  return message
}
