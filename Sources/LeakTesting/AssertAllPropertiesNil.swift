import HeapModel
import XCTest

/// Fails the running test for every stored optional property of `fixture`
/// that still holds a value — the "everything is nil after teardown" check.
///
/// The helper reads the stored properties with `Mirror`, including those
/// inherited from superclasses (up to, not including, `XCTestCase`), and
/// names each offending property with the type of its value. Non-optional
/// properties (and non-optional `lazy` ones) cannot be nil and are skipped; so
/// are the names in `ignoring`.
///
/// XCTest: call it at the end of `tearDown()`, after releasing everything.
///
/// ```swift
/// final class ProfileTests: XCTestCase {
///   var presenter: ProfilePresenter?
///   var service: ProfileService?
///
///   override func tearDown() {
///     presenter = nil
///     service = nil
///     assertAllPropertiesNil(in: self)
///     super.tearDown()
///   }
/// }
/// ```
///
/// Swift Testing: call it on the fixture once the test has torn it down.
///
/// ```swift
/// @Test func teardownReleasesEverything() {
///   let fixture = ProfileFixture()
///   fixture.tearDown()
///   assertAllPropertiesNil(in: fixture)
/// }
/// ```
///
/// Failure, one per property: ``` `presenter` (ProfilePresenter) is still set after teardown ```,
/// followed by `; retained by: <path>` when the value is in a retain cycle.
///
/// - Parameters:
///   - fixture: the test case or fixture, usually `self`.
///   - ignored: property names that may stay set.
///   - explain: explains why an object still set is alive, for the failure message;
///     `nil` (the default) uses RetainGraph's, ``noRetainPath`` leaves it out.
/// - Returns: the failures recorded, if any.
@discardableResult
public func assertAllPropertiesNil(
  in fixture: Any,
  ignoring ignored: Set<String> = [],
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> LeakCheckResult {
  var failures: [String] = []
  var mirror: Mirror? = Mirror(reflecting: fixture)
  while let current = mirror, current.subjectType != XCTestCase.self {
    for child in current.children {
      guard let label = child.label, let (name, value) = setProperty(label: label, value: child.value),
        !ignored.contains(name)
      else { continue }
      let message = "`\(name)` (\(nameOfType(value))) is still set after teardown"
      failures.append(explained(message, object: ModuleParts.classInstance(value), explain: explain))
    }
    mirror = current.superclassMirror
  }
  let result = LeakCheckResult(failures: failures)
  return record(result, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// The property's name and value if it is an optional that holds a value;
/// `nil` for nil optionals and for properties that cannot be nil.
///
/// A `lazy var` is stored as an optional around the declared type (named
/// `$__lazy_storage_$_name`, see `TypeNames.lazyVariable(stored:)`): it
/// counts only if the declared type is optional.
private func setProperty(label: String, value: Any) -> (name: String, value: Any)? {
  guard let name = TypeNames.lazyVariable(stored: label) else {
    return unwrappedOptional(value).map { (label, $0) }
  }
  guard let declared = unwrappedOptional(value), Mirror(reflecting: declared).displayStyle == .optional
  else { return nil }  // never accessed, or not an optional
  return unwrappedOptional(declared).map { (name, $0) }
}

/// The wrapped value if `value` is a non-nil optional; `nil` for nil and for non-optionals.
private func unwrappedOptional(_ value: Any) -> Any? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .optional else { return nil }
  return mirror.children.first?.value
}
