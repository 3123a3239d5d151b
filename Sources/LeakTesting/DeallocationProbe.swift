/// Builds an object, uses it, lets go of it, and keeps only a weak reference.
///
/// The object lives only inside the initializer, so once it returns nothing
/// but the code under test can keep it alive.
@MainActor
struct DeallocationProbe {
  let reference: WeakReference

  init<Object: AnyObject>(
    make: () throws -> Object,
    use: (Object) throws -> Void,
    then finish: (Object) throws -> Void
  ) rethrows {
    let object = try make()
    try use(object)
    try finish(object)
    reference = WeakReference(object)
  }

  init<Object: AnyObject>(
    make: () throws -> Object,
    use: (Object) async throws -> Void,
    then finish: (Object) async throws -> Void
  ) async rethrows {
    let object = try make()
    try await use(object)
    try await finish(object)
    reference = WeakReference(object)
  }

  /// The result after waiting: passed if the object is gone, else one message
  /// "`TypeName` is still alive[ 2.0 s] after `event`".
  func result(
    gone: Bool, wait: LeakWait, after event: String, hint: String = "", explain: RetainPathExplainer?
  ) -> LeakCheckResult {
    guard !gone else { return LeakCheckResult() }
    let message = "\(reference.typeName) is still alive\(wait.elapsedPhrase) after \(event)\(hint)"
    return LeakCheckResult(failures: [explained(message, object: reference.object, explain: explain)])
  }
}
