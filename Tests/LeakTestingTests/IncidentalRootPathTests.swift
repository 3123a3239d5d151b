import LeakLabTestSupport
import Testing

/// The comparison the other suites' expected messages go through: only an
/// appended root path is incidental, the rest must match exactly.
@Suite struct IncidentalRootPathTests {
  let cycle =
    "`screen` (Screen) is still alive; retained by: retain cycle: Screen → p: P → s: Screen (strong)"

  @Test func aRootPathAfterAnExpectedCycleIsLeftOut() {
    let message =
      cycle + "; also held from root: global gLocale in libicu.so → (conservative) word 12: Screen"
    #expect(withoutIncidentalRootPath(message, expected: [cycle]) == cycle)
  }

  @Test func aRootPathWhereNoPathWasExpectedIsLeftOut() {
    let expected = "`service` (Service) is still alive"
    let message = expected + "; retained by: held from root: global queue → Service"
    #expect(withoutIncidentalRootPath(message, expected: [cycle, expected]) == expected)
  }

  @Test func aDifferentCycleIsNotMadeToMatch() {
    let other = cycle.replacing("p: P", with: "q: P")
    let message = other + "; also held from root: global g → Screen"
    #expect(withoutIncidentalRootPath(message, expected: [cycle]) == message)
  }

  @Test func anExpectedRootPathIsKept() {
    let expected = "`service` (Service) is still alive; retained by: held from root: global queue → Service"
    #expect(withoutIncidentalRootPath(expected, expected: [expected]) == expected)
  }
}
