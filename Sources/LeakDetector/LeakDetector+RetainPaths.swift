extension LeakDetector {
  /// Replaces the retain path of the reported leak of `object`: for an
  /// explainer that answers in two steps (a quick answer when the leak is
  /// detected, a fuller one found later off the detecting thread).
  ///
  /// The report's ``LeakedInstance/retainPath`` changes; the detection event
  /// already delivered does not. Returns whether `object` is a reported leak.
  ///
  /// ```swift
  /// detector.updateRetainPath(of: screen, to: explainer.explain(screen).description)
  /// ```
  @discardableResult
  public func updateRetainPath(of object: AnyObject, to path: String) -> Bool {
    state.withLock { state in
      guard let index = state.watched.firstIndex(where: { $0.object === object }) else { return false }
      state.watched[index].record.retainPath = path
      return true
    }
  }
}
