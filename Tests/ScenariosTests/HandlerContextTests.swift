import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `handler-context`: a pipeline context owns its handler; the handler stores the context.
@MainActor
@Suite struct HandlerContextTests {
  @Test(arguments: ScenarioMode.allCases)
  func aClosedConnectionLeavesTheHandlerAndItsContextOnlyInTheLeakyForm(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let channel = Channel()
      let handler = RequestLogHandler(mode: mode)
      channel.pipeline.addHandler(handler)
      channel.pipeline.fireChannelRead("GET /")
      #expect(channel.written == ["200 OK (request 1)"])
      parts.keep("RequestLogHandler", handler)
      parts.keep("ChannelHandlerContext", channel.pipeline.contexts[0])
      parts.keep("Channel", channel)
      channel.close()
      #expect(channel.pipeline.contexts.isEmpty)
    }
    #expect(parts.alive == (mode == .strong ? ["RequestLogHandler", "ChannelHandlerContext"] : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func theDetectorReportsTheHandlerAndTheContext(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.handlerContext, mode: mode) as? ServerScreen
    #expect(rig.harness.runAction(at: 1))
    #expect(screen?.statusLabel.text == "No connection: accept one first")
    rig.harness.runAction(at: 0)
    rig.harness.runAction(at: 1)
    #expect(screen?.statusLabel.text == "Sent: 200 OK (request 1)")
    rig.harness.close()
    rig.scheduler.advance(by: .seconds(1))
    #expect(screen == nil, "the screen and its channel go in both forms")
    #expect(
      rig.label
        == (mode == .strong ? "Leaked: ChannelHandlerContext#1, RequestLogHandler#1" : "No issues detected"))
  }
}
