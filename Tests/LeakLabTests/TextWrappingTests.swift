import Testing

@testable import LeakLab

/// Wrapping text that must not be cut: a source path and its line number.
@Suite struct TextWrappingTests {
  @Test func aPathWiderThanTheLineBreaksBetweenItsFoldersAndKeepsItsLineNumber() {
    let lines = TextWrapping.words(
      "allocated in serve(_:) at Tools/LeakFixtures/WatchedServer/main.swift:39", width: 38,
      cutsLongWords: false)
    #expect(lines == ["allocated in serve(_:) at", "Tools/LeakFixtures/WatchedServer/", "main.swift:39"])
  }
}
