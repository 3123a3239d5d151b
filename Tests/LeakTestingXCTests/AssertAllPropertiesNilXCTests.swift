import LeakLabTestSupport
import LeakTesting
import XCTest

/// The fixture check on the test case itself, the way an XCTest user runs it.
final class AssertAllPropertiesNilXCTests: FailureRecordingTestCase {
  var presenter: Presenter?
  var service: Service?
  var holder: ClosureHolder?
  let title = "fixture"

  override func setUp() {
    super.setUp()
    service = Service()
    presenter = Presenter(service: service!)
    holder = ClosureHolder()
  }

  func testPassesWhenTeardownReleasesEverything() {
    presenter = nil
    service = nil
    holder = nil
    XCTAssertEqual(recordingNonisolatedFailures { assertAllPropertiesNil(in: self) }, [])
  }

  func testNamesEveryPropertyStillSetOnTheTestCase() {
    holder = nil  // a careless teardown
    let failures = recordingNonisolatedFailures { assertAllPropertiesNil(in: self) }
    // The test case itself is what holds them, from XCTest's global current
    // test case (no root path where the memory view cannot walk the heap).
    // The presenter holds the service too: its count is accounted for.
    let rootPath = { (property: String, type: String, references: String) in
      memoryViewIsSupported
        ? "; retained by: held from root: global XCTCurrentTestCase in libXCTest.so → (conservative)"
          + " AssertAllPropertiesNilXCTests → \(property): \(type) (strong); \(references)" : ""
    }
    assertMessages(
      failures,
      [
        "`presenter` (Presenter) is still set after teardown"
          + rootPath("presenter", "Presenter", "1 of 1 strong reference found"),
        "`service` (Service) is still set after teardown"
          + rootPath("service", "Service", "2 of 2 strong references found"),
      ])
    presenter = nil
    service = nil
  }
}
