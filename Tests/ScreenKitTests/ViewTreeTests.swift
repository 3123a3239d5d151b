import ScreenKit
import Testing

@MainActor
@Suite struct ViewTreeTests {
  @Test func addingASubviewMovesItFromItsOldSuperview() {
    let a = View()
    let b = View()
    let child = Label("x")
    a.addSubview(child)
    b.addSubview(child)
    #expect(a.subviews.isEmpty)
    #expect(child.superview === b)
  }

  @Test func aViewFindsItsScreenThroughTheRootView() {
    let screen = Screen(title: "S")
    let inner = View()
    let label = Label("deep")
    screen.view.addSubview(inner)
    inner.addSubview(label)
    #expect(label.screen === screen)
    #expect(View().screen == nil)
  }

  @Test func buttonsRunTheirActionOnlyWhenEnabledAndShown() {
    var taps = 0
    let button = Button("Go") { taps += 1 }
    button.tap()
    button.isEnabled = false
    button.tap()
    button.isEnabled = true
    button.isHidden = true
    button.tap()
    #expect(taps == 1)
  }

  @Test func theSnapshotDescribesTitleViewsAndAlert() {
    let window = Window()
    let stack = NavigationStack(root: Screen(title: "Home"))
    window.rootScreen = stack
    let detail = Screen(title: "Detail")
    stack.push(detail)
    let box = View()
    box.addSubview(Label("Hello"))
    detail.view.addSubview(box)
    detail.view.addSubview(Button("Load"))
    let hidden = Label("secret")
    hidden.isHidden = true
    detail.view.addSubview(hidden)
    let alert = AlertController(title: "Oops", message: "Try again")
    alert.addAction(AlertAction(title: "OK"))
    detail.present(alert)
    let snapshot = try! #require(window.snapshot())
    #expect(snapshot.title == "Detail")
    #expect(snapshot.navigationDepth == 2)
    #expect(snapshot.backTitle == "Home")
    #expect(
      snapshot.views == [
        ViewSnapshot(depth: 0, content: .container, identifier: nil),
        ViewSnapshot(depth: 1, content: .label("Hello"), identifier: nil),
        ViewSnapshot(depth: 0, content: .button(title: "Load", isEnabled: true), identifier: nil),
      ])
    #expect(snapshot.buttons == ["Load"])
    #expect(snapshot.alert?.title == "Oops")
    #expect(snapshot.alert?.actions.map(\.title) == ["OK"])
  }

  @Test func tappingAButtonByTitleReachesTheContentScreen() {
    let window = Window()
    let screen = Screen(title: "Home")
    var loaded = false
    screen.view.addSubview(Button("Load") { loaded = true })
    window.rootScreen = screen
    #expect(window.tapButton(titled: "Load"))
    #expect(loaded)
    #expect(!window.tapButton(titled: "Missing"))
  }
}
