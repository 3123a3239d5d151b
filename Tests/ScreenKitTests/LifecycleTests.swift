import ScreenKit
import Testing

@MainActor
@Suite struct LifecycleTests {
  @Test func settingTheRootLoadsAndShowsIt() {
    let lifecycle = Lifecycle()
    let window = Window()
    window.rootScreen = RecordingScreen("Home", lifecycle)
    #expect(lifecycle.take() == ["Home.viewDidLoad", "Home.viewWillAppear", "Home.viewDidAppear"])
  }

  @Test func pushAndPopFollowUIKitOrder() {
    let lifecycle = Lifecycle()
    let window = Window()
    let stack = NavigationStack(root: RecordingScreen("Home", lifecycle))
    window.rootScreen = stack
    _ = lifecycle.take()
    stack.push(RecordingScreen("Detail", lifecycle))
    #expect(
      lifecycle.take() == [
        "Home.viewWillDisappear", "Detail.viewDidLoad", "Detail.viewWillAppear",
        "Home.viewDidDisappear", "Detail.viewDidAppear",
      ])
    stack.pop()
    #expect(
      lifecycle.take() == [
        "Detail.viewWillDisappear", "Home.viewWillAppear", "Detail.viewDidDisappear", "Home.viewDidAppear",
      ])
  }

  @Test func aScreenPushedOffWindowGetsNoAppearanceCalls() {
    let lifecycle = Lifecycle()
    let stack = NavigationStack(root: RecordingScreen("Home", lifecycle))
    stack.push(RecordingScreen("Detail", lifecycle))
    #expect(lifecycle.take().isEmpty)
  }

  @Test func presentAndDismissAFullScreenModal() {
    let lifecycle = Lifecycle()
    let window = Window()
    let home = RecordingScreen("Home", lifecycle)
    window.rootScreen = home
    _ = lifecycle.take()
    home.present(RecordingScreen("Modal", lifecycle))
    #expect(
      lifecycle.take() == [
        "Home.viewWillDisappear", "Modal.viewDidLoad", "Modal.viewWillAppear",
        "Home.viewDidDisappear", "Modal.viewDidAppear",
      ])
    home.dismiss()
    #expect(
      lifecycle.take() == [
        "Modal.viewWillDisappear", "Home.viewWillAppear", "Modal.viewDidDisappear", "Home.viewDidAppear",
      ])
    #expect(home.presentedScreen == nil)
  }

  @Test func anAlertLeavesItsPresenterOnScreen() {
    let lifecycle = Lifecycle()
    let window = Window()
    let home = RecordingScreen("Home", lifecycle)
    window.rootScreen = home
    _ = lifecycle.take()
    var tapped: [String] = []
    let alert = AlertController(title: "Delete?")
    alert.addAction(AlertAction(title: "Delete", style: .destructive) { tapped.append($0.title) })
    home.present(alert)
    #expect(lifecycle.take().isEmpty)
    #expect(window.topAlert === alert)
    alert.tapAction(at: 0)
    #expect(tapped == ["Delete"])
    #expect(window.topAlert == nil)
    #expect(home.isVisible)
  }

  @Test func nestedContainersForwardAppearanceToTheirVisibleChild() {
    let lifecycle = Lifecycle()
    let window = Window()
    let inner = NavigationStack(root: RecordingScreen("Inner", lifecycle))
    let outer = NavigationStack(root: RecordingScreen("Outer", lifecycle))
    window.rootScreen = outer
    _ = lifecycle.take()
    outer.push(inner)
    #expect(
      lifecycle.take() == [
        "Outer.viewWillDisappear", "Inner.viewDidLoad", "Inner.viewWillAppear",
        "Outer.viewDidDisappear", "Inner.viewDidAppear",
      ])
    #expect(window.topScreen?.title == "Inner")
  }

  @Test func dismissingAModalAlsoDismissesWhatItPresented() {
    let lifecycle = Lifecycle()
    let window = Window()
    let home = RecordingScreen("Home", lifecycle)
    window.rootScreen = home
    let modal = RecordingScreen("Modal", lifecycle)
    home.present(modal)
    modal.present(RecordingScreen("Sheet", lifecycle))
    #expect(window.presentationChain.map(\.title) == ["Home", "Modal", "Sheet"])
    home.dismiss()
    #expect(window.presentationChain.map(\.title) == ["Home"])
    #expect(home.isVisible)
    #expect(!modal.isVisible)
  }

  @Test func goBackClosesTheAlertThenTheModalThenPops() {
    let window = Window()
    let stack = NavigationStack(root: Screen(title: "Home"))
    window.rootScreen = stack
    stack.push(Screen(title: "Detail"))
    let modal = Screen(title: "Modal")
    stack.present(modal)
    let alert = AlertController(title: "Sure?")
    alert.addAction(AlertAction(title: "OK"))
    alert.addAction(AlertAction(title: "Cancel", style: .cancel))
    modal.present(alert)
    #expect(window.goBack())
    #expect(window.topScreen?.title == "Modal")
    #expect(window.goBack())
    #expect(window.topScreen?.title == "Detail")
    #expect(window.goBack())
    #expect(window.topScreen?.title == "Home")
    #expect(!window.goBack())
  }
}
