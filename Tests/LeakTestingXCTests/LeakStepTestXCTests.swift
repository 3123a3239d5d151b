import LeakLabTestSupport
import LeakTesting
import ScreenKit
import XCTest

final class LeakStepTestXCTests: FailureRecordingTestCase {
  func testFailsNamingTheFirstStepThatLeaked() {
    var transcript = ""
    let failures = recordingFailures {
      let world = World()
      let steps = LeakStepTest(detector: world.detector)
      var feed: FeedScreen?
      steps.step("open feed") {
        feed = FeedScreen(title: "Feed")
        world.home.present(feed!)
      }
      steps.step("close feed") {
        world.window.goBack()
        feed = nil
      }
      steps.step("open feed again") {
        feed = FeedScreen(title: "Feed")
        world.home.present(feed!)
        feed?.leak()
      }
      steps.step("close feed again") {
        world.window.goBack()
        feed = nil
      }
      transcript = steps.transcript
      world.window.rootScreen = nil
    }
    assertMessages(
      failures,
      ["step 4 'close feed again' leaked: expected `No issues detected`, got `Leaked: FeedScreen#1`"])
    XCTAssertEqual(
      transcript,
      """
      1. open feed -> No issues detected
      2. close feed -> No issues detected
      3. open feed again -> No issues detected
      4. close feed again -> Leaked: FeedScreen#1
      """)
  }
}
