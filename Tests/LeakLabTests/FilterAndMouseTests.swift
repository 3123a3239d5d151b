import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// `/` filters the catalogue; a click selects and focuses, the wheel scrolls.
@MainActor
@Suite struct FilterTests {
  let app = TestApp(catalogue: Catalogue.all)

  func type(_ text: String) {
    for character in text { app.model.handle(.character(character)) }
  }

  @Test func typedTextNarrowsTheListAndEnterOpensTheMatch() {
    app.model.handle(.character("/"))
    #expect(app.state.isEditingFilter)
    #expect(app.state.keyContext == .filtering)
    type("timer")
    #expect(app.state.filter == "timer")
    app.model.handle(.character("q"))
    #expect(app.state.filter == "timerq")
    app.model.handle(.backspace)
    #expect(
      app.state.visibleCatalogueIndices.map { app.state.catalogue[$0].id } == [
        "repeating-timer", "foundation-timer", "dispatch-source-timer",
      ])
    #expect(app.state.selectedEntry?.id == "repeating-timer")
    // `q` and `w` are text while the filter is typed.
    #expect(!app.state.isQuitRequested)
    let screen = render(app.state, size: Size(width: 100, height: 30)).lines
    #expect(screen.first?.contains("Scenarios · /timer▏") == true)
    #expect(screen.last?.hasPrefix(" Filter /timer▏ ") == true)
    app.model.handle(.enter)
    #expect(!app.state.isEditingFilter)
    #expect(app.state.filter == "timer")
    app.model.handle(.enter)
    #expect(app.state.openScenario?.id == "repeating-timer")
  }

  @Test func escClearsTheFilterAndBackspaceEditsIt() {
    app.model.handle(.character("/"))
    type("delegx")
    #expect(app.state.visibleCatalogueIndices.isEmpty)
    app.model.handle(.backspace)
    #expect(app.state.visibleCatalogueIndices.map { app.state.catalogue[$0].id } == ["strong-delegate"])
    app.model.handle(.escape)
    #expect(app.state.filter.isEmpty)
    #expect(app.state.visibleCatalogueIndices.count == Catalogue.all.count)
    #expect(app.state.selectedEntry?.id == "strong-delegate")
  }

  @Test func arrowsMoveOverTheMatchesOnly() {
    app.model.handle(.character("/"))
    type("closure")
    let ids = app.state.visibleCatalogueIndices.map { app.state.catalogue[$0].id }
    #expect(ids == ["closure-capture", "nested-closure", "lazy-closure-property"])
    app.model.handle(.down)
    #expect(app.state.selectedEntry?.id == "nested-closure")
    app.model.handle(.down)
    app.model.handle(.down)
    #expect(app.state.selectedEntry?.id == "lazy-closure-property")
  }
}

@MainActor
@Suite struct MouseTests {
  let app = TestApp(catalogue: Catalogue.all)

  init() {
    app.model.resize(to: Size(width: 120, height: 40))
  }

  var layout: AppLayout { AppLayout(size: app.state.screenSize, state: app.state) }

  @Test func aClickOnAScenarioSelectsItAndFocusesTheList() {
    app.send(.focusNextPressed)
    let row = layout.catalogue.minY + 1 + 4
    app.model.handle(.mouse(MouseEvent(.press, at: Point(x: layout.catalogue.minX + 3, y: row))))
    #expect(app.state.focus == .catalogue)
    #expect(app.state.selectedEntry?.id == "delayed-dispatch")
  }

  @Test func aClickOnAPaneFocusesItAndTheWheelScrollsThePaneUnderThePointer() {
    let code = layout.code
    app.model.handle(.mouse(MouseEvent(.press, at: Point(x: code.minX + 2, y: code.minY + 2))))
    #expect(app.state.focus == .code)
    app.model.handle(.mouse(MouseEvent(.wheelDown, at: Point(x: code.minX + 2, y: code.minY + 2))))
    #expect(app.state.scroll[.code] != nil)
    // The wheel over the catalogue moves its selection, whatever has the focus.
    app.model.handle(.mouse(MouseEvent(.wheelDown, at: Point(x: 2, y: 3))))
    #expect(app.state.selectedIndex == 1)
    #expect(app.state.focus == .code)
  }

  @Test func aClickOnALeakInTheDetectorPutsItsCursorThere() throws {
    app.send(.scenarioSelected(id: "alert-action-capture"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .actionKeyPressed(2), .closeKeyPressed)
    app.advance(.seconds(1))
    let overlay = try #require(layout.overlay)
    let screen = render(app.state, size: app.state.screenSize).lines
    let row = try #require(screen.firstIndex { $0.contains("DraftsScreen#1     open") })
    app.model.handle(.mouse(MouseEvent(.press, at: Point(x: overlay.minX + 3, y: row))))
    #expect(app.state.focus == .detector)
    #expect(app.state.selectedLeakIndex == 1)
  }
}
