import LeakLabTestSupport
import LeakTesting
import Testing

@MainActor
/// In a process of its own: a survivor that no cycle explains is searched
/// for in memory, and that answer depends on what else lives in the process.
@Suite(.inProcessOfItsOwn("AssertAllPropertiesNilTests")) struct AssertAllPropertiesNilTests {
  class BaseFixture {
    var service: Service?
  }

  final class Fixture: BaseFixture {
    var screen: ModuleScreen?
    var presenter: Presenter?
    var name = "fixture"
    var count: Int?
    lazy var cache: ClosureHolder? = ClosureHolder()

    /// Teardown as a careless test writes it: only the screen is released.
    func carelessTearDown() { screen = nil }

    func tearDown() {
      screen = nil
      presenter = nil
      service = nil
      count = nil
      cache = nil
    }
  }

  static func makeFixture() -> Fixture {
    let fixture = Fixture()
    let (screen, presenter, service) = makeAndExpose(strong: false)
    fixture.screen = screen
    fixture.presenter = presenter
    fixture.service = service
    fixture.count = 3
    _ = fixture.cache
    return fixture
  }

  @Test func passesWhenTeardownReleasesEverything() {
    let fixture = Self.makeFixture()
    fixture.tearDown()
    let result = assertAllPropertiesNil(in: fixture)
    #expect(result.passed)
  }

  @Test func namesEveryPropertyStillSetIncludingInheritedAndLazyOnes() {
    let fixture = Self.makeFixture()
    fixture.carelessTearDown()
    expectIssues([
      "`presenter` (Presenter) is still set after teardown",
      "`count` (Int) is still set after teardown",
      "`cache` (ClosureHolder) is still set after teardown",
      "`service` (Service) is still set after teardown",
    ]) {
      assertAllPropertiesNil(in: fixture)
    }
  }

  @Test func skipsIgnoredProperties() {
    let fixture = Self.makeFixture()
    fixture.tearDown()
    fixture.count = 1
    #expect(assertAllPropertiesNil(in: fixture, ignoring: ["count"]).passed)
  }

  @Test func worksOnAStructFixtureAndExplainsObjects() {
    struct Fixture {
      var owner: Owner?
      var label: String?
    }
    let fixture = Fixture(owner: Owner(strongDelegate: false), label: nil)
    expectIssues(["`owner` (Owner) is still set after teardown; retained by: Fixture.owner"]) {
      assertAllPropertiesNil(in: fixture, explain: { _ in "Fixture.owner" })
    }
  }
}

@Test(.runsSuitesAlone) func assertAllPropertiesNilTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("LeakTestingTests.AssertAllPropertiesNilTests")
}
