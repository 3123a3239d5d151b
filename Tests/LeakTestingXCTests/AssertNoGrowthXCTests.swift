import LeakLabTestSupport
import LeakTesting
import XCTest

/// A cache keyed by request that never evicts, or (fixed) keeps two.
final class RequestCache {
  final class Entry {
    let key: String
    init(key: String) { self.key = key }
  }

  nonisolated(unsafe) static var entries: [String: Entry] = [:]
  private var requests = 0
  let evicts: Bool

  init(evicts: Bool) { self.evicts = evicts }

  func respond() {
    requests += 1
    let key = "/items/\(requests)"
    Self.entries[key] = Entry(key: key)
    if evicts { Self.entries = Self.entries.filter { $0.key == key || $0.key == "/items/\(requests - 1)" } }
  }
}

/// The growth check under XCTest: the same failures, through `XCTFail`.
final class AssertNoGrowthXCTests: FailureRecordingTestCase {
  func testACacheThatNeverEvictsFailsNamingTheEntryTypeAndTheCacheThatKeepsIt() throws {
    try XCTSkipUnless(memoryViewIsSupported)
    RequestCache.entries = [:]
    let cache = RequestCache(evicts: false)
    var result: GrowthCheckResult?
    var callLine = 0
    let failures = recordingNonisolatedFailures {
      callLine = #line + 1
      result = assertNoGrowth(iterations: 6, of: [RequestCache.Entry.self]) { cache.respond() }
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.map(\.line), [callLine])
    let message = try XCTUnwrap(failures.first?.message)
    XCTAssertTrue(
      message.hasPrefix(
        "Entry grew by 1.0 per iteration (2 → 8 after 6 iterations); kept by: "
          + "global static RequestCache.entries in LeakLabPackageTests.xctest → Dictionary<String, Entry> storage"
      ),
      message)
    XCTAssertTrue(message.hasSuffix(": Entry"), message)
    XCTAssertEqual(result?.growths.map(\.after), [8])
    RequestCache.entries = [:]
  }

  func testACacheThatEvictsPasses() throws {
    try XCTSkipUnless(memoryViewIsSupported)
    RequestCache.entries = [:]
    let cache = RequestCache(evicts: true)
    let failures = recordingNonisolatedFailures {
      XCTAssertTrue(assertNoGrowth(iterations: 6, of: [RequestCache.Entry.self]) { cache.respond() }.passed)
    }
    XCTAssertEqual(failures, [])
    XCTAssertEqual(RequestCache.entries.count, 2)
    RequestCache.entries = [:]
  }
}
