import LeakClock
import LeakDetector
import ScreenKit
import Testing

@MainActor
@Suite struct LeakCheckTests {
  @Test func aPoppedScreenThatDeallocatesIsClean() {
    let world = World()
    let stack = NavigationStack(root: Screen(title: "Home"))
    world.window.rootScreen = stack
    stack.push(SelfRetainingScreen(title: "Feed"))
    stack.pop()
    world.advance(1)
    #expect(world.label == "No issues detected")
  }

  @Test func aPoppedScreenThatStaysAliveIsReportedWithItsViewsFolded() {
    let world = World()
    let stack = NavigationStack(root: Screen(title: "Home"))
    world.window.rootScreen = stack
    let feed = SelfRetainingScreen(title: "Feed")
    stack.push(feed)
    feed.leak()
    stack.pop()
    world.advance(1)
    #expect(world.label == "Leaked: SelfRetainingScreen#1")
    let leak = try! #require(world.detector.report.openLeaks.first)
    #expect(leak.folded == ["View#1", "Label#1", "Button#1"])
    feed.onRefresh = nil  // break the cycle
  }

  @Test func aScreenShownAgainBeforeTheDelayIsNotALeak() {
    let world = World()
    let stack = NavigationStack(root: Screen(title: "Home"))
    world.window.rootScreen = stack
    let detail = Screen(title: "Detail")
    stack.push(detail)
    stack.pop()
    stack.push(detail)
    world.advance(2)
    #expect(world.label == "No issues detected")
  }

  @Test func aDismissedAlertThatCapturesItselfLeaks() {
    let world = World()
    let home = Screen(title: "Home")
    world.window.rootScreen = home
    let alert = AlertController(title: "Rename")
    alert.addAction(AlertAction(title: "OK") { _ in _ = alert.title })
    home.present(alert)
    world.window.goBack()
    world.advance(1)
    #expect(world.label == "Leaked: AlertController#1")
  }

  @Test func replacingTheRootExpectsTheOldTree() {
    let world = World()
    let old = SelfRetainingScreen(title: "Old")
    world.window.rootScreen = old
    old.leak()
    world.window.rootScreen = Screen(title: "New")
    world.advance(1)
    #expect(world.label == "Leaked: SelfRetainingScreen#1")
    old.onRefresh = nil
  }

  @Test func aRemovedChildScreenIsExpected() {
    let world = World()
    let parent = Screen(title: "Parent")
    world.window.rootScreen = parent
    let child = SelfRetainingScreen(title: "Child")
    parent.addChild(child)
    child.leak()
    child.removeFromParent()
    world.advance(1)
    #expect(world.label == "Leaked: SelfRetainingScreen#1")
    child.onRefresh = nil
  }

  @Test func aRemovedViewCanBeExpectedToDeallocate() {
    let world = World()
    let screen = Screen(title: "Home")
    world.window.rootScreen = screen
    let label = Label("Sale!")
    do {
      let banner = View()
      banner.addSubview(label)
      screen.view.addSubview(banner)
    }
    let keeper = [label]  // something else still holds the label
    screen.view.subviews[0].removeFromSuperviewExpectingDeallocation()
    world.advance(1)
    #expect(world.label == "Leaked: Label#1")
    _ = keeper
  }
}
