import XCTest

/// Fails the running test for every stored optional property of `fixture`
/// that still holds a value — the "everything is nil after teardown" check.
///
/// The helper reads the stored properties with `Mirror`, including those
/// inherited from superclasses (up to, not including, `XCTestCase`), and
/// names each offending property with the type of its value. Non-optional
/// properties cannot be nil and are skipped; so are the names in `ignoring`.
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
/// Failure, one per property: ``` `presenter` (ProfilePresenter) is still set after teardown ```.
///
/// - Parameters:
///   - fixture: the test case or fixture, usually `self`.
///   - ignored: property names that may stay set.
///   - explain: explains why an object still set is alive, for the failure message.
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
      guard let label = child.label.map(propertyName(fromStorageLabel:)), !ignored.contains(label),
        let value = unwrappedOptional(child.value)
      else { continue }
      let message = "`\(label)` (\(nameOfType(value))) is still set after teardown"
      failures.append(explained(message, object: ModuleParts.classInstance(value), explain: explain))
    }
    mirror = current.superclassMirror
  }
  let result = LeakCheckResult(failures: failures)
  return record(result, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// The wrapped value if `value` is a non-nil optional; `nil` for nil and for non-optionals.
private func unwrappedOptional(_ value: Any) -> Any? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .optional else { return nil }
  return mirror.children.first?.value
}

/// `cache` for the storage of `lazy var cache`; other labels unchanged.
private func propertyName(fromStorageLabel label: String) -> String {
  let lazyPrefix = "$__lazy_storage_$_"
  return label.hasPrefix(lazyPrefix) ? String(label.dropFirst(lazyPrefix.count)) : label
}
