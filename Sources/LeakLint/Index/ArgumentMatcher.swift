/// Matches a call's arguments to a declaration's parameters, the way Swift
/// does for the common cases: labels in order, defaulted parameters skipped,
/// the unlabeled trailing closure to the next parameter that takes a closure.
enum ArgumentMatcher {
  /// For each argument (explicit ones, then trailing closures), the parameter
  /// index it binds to; `nil` when the call cannot be to this declaration.
  ///
  /// `labels` are the explicit arguments' labels (`nil` for none);
  /// `trailingLabels` are the trailing closures' (`nil` for the first).
  static func match(parameters: [FunctionInfo.Parameter], labels: [String?], trailingLabels: [String?] = [])
    -> [Int]?
  {
    var result: [Int] = []
    var next = 0
    for label in labels {
      while next < parameters.count, parameters[next].label != label, parameters[next].hasDefault {
        next += 1
      }
      guard next < parameters.count, parameters[next].label == label else { return nil }
      result.append(next)
      next += 1
    }
    for (index, label) in trailingLabels.enumerated() {
      if index == 0 && label == nil {
        while next < parameters.count, parameters[next].hasDefault, !parameters[next].isClosure { next += 1 }
        guard next < parameters.count else { return nil }
      } else {
        while next < parameters.count, parameters[next].label != label, parameters[next].hasDefault {
          next += 1
        }
        guard next < parameters.count, parameters[next].label == label else { return nil }
      }
      result.append(next)
      next += 1
    }
    guard parameters[next...].allSatisfy(\.hasDefault) else { return nil }
    return result
  }

}
