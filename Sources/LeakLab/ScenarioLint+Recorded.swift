// Recorded by LeakLintTests (ScenarioLintRecordTests) from `leaklab lint` on both
// forms of every scenario; `LEAKLAB_RECORD_SNAPSHOTS=1 swift test` rewrites it.

extension ScenarioLint {
  /// The lint's findings by `scenario-id/mode` (`[]`: none); a scenario not listed was not linted.
  static let recorded: [String: [Finding]] = [
    "abandoned-memory/strong": [
      Finding(
        rule: "global-registration", title: "global list keeps self",
        line: "OpenScreens.unregister(self)  // never runs: the list keeps self")
    ],
    "abandoned-memory/weak": [],
    "alert-action-capture/strong": [
      Finding(
        rule: "captured-owner", title: "closure captures its owner",
        line: "delete = { _ in self.deleteDraft(named: alert.message) }")
    ],
    "alert-action-capture/weak": [],
    "child-coordinator/strong": [
      Finding(
        rule: "strong-back-reference", title: "strong back reference",
        line: "var parentCoordinator: OrdersCoordinator?")
    ],
    "child-coordinator/weak": [],
    "closure-capture/strong": [
      Finding(
        rule: "method-reference", title: "method reference stores self",
        line: "service.run(completion: handleResponse)")
    ],
    "closure-capture/weak": [],
    "combine-sink/strong": [
      Finding(
        rule: "combine-sink", title: "subscription stores self",
        line: "model.results.sink { self.show($0) }.store(in: &cancellables)")
    ],
    "combine-sink/weak": [],
    "delayed-dispatch/strong": [
      Finding(
        rule: "delayed-dispatch", title: "delayed block keeps self",
        line: "mainQueue.asyncAfter(.seconds(10)) { self.statusLabel.text = \"Synced\" }")
    ],
    "delayed-dispatch/weak": [],
    "dispatch-source-timer/strong": [
      Finding(
        rule: "dispatch-source", title: "dispatch source keeps self",
        line: "source.setEventHandler { MainActor.assumeIsolated { self.poll() } }")
    ],
    "dispatch-source-timer/weak": [],
    "foundation-timer/strong": [
      Finding(
        rule: "repeating-timer", title: "repeating timer keeps self",
        line: "timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in")
    ],
    "foundation-timer/weak": [],
    "handler-context/strong": [
      Finding(
        rule: "strong-back-reference", title: "strong back reference",
        line: "private var context: ChannelHandlerContext?")
    ],
    "handler-context/weak": [],
    "lazy-closure-property/strong": [
      Finding(
        rule: "lazy-closure", title: "lazy closure stores self",
        line: "{ count in \"Items: \\(count), \\(count * 5) \\(self.currency)\" }")
    ],
    "lazy-closure-property/weak": [],
    "nested-closure/strong": [
      Finding(
        rule: "stored-closure", title: "closure stores self",
        line: "self.retryButton.action = { self.loadPhoto() }")
    ],
    "nested-closure/weak": [],
    "notification-observer/strong": [
      Finding(
        rule: "notification-observer", title: "observer block keeps self",
        line: "onChange = { _ in MainActor.assumeIsolated { self.refresh() } }")
    ],
    "notification-observer/weak": [],
    "repeating-timer/strong": [
      Finding(
        rule: "repeating-timer", title: "repeating timer keeps self",
        line: "timer = mainQueue.scheduledTimer(withTimeInterval: .seconds(1)) {")
    ],
    "repeating-timer/weak": [],
    "strong-delegate/strong": [
      Finding(
        rule: "strong-back-reference", title: "strong back reference",
        line: "var delegate: (any PaymentFormDelegate)?")
    ],
    "strong-delegate/weak": [],
    "task-loop/strong": [
      Finding(
        rule: "task-loop", title: "endless task stores self",
        line: "task = Task { for await price in prices { self.show(price) } }")
    ],
    "task-loop/weak": [],
    "task-zombie/strong": [
      Finding(
        rule: "task-zombie", title: "endless task outlives self",
        line: "task = Task { [weak self, feed] in")
    ],
    "task-zombie/weak": [],
    "unowned-capture/strong": [
      Finding(
        rule: "unowned-capture", title: "unowned capture outlives self",
        line: "downloader.download(\"cover.jpg\") { [unowned self] image in self.show(image) }")
    ],
    "unowned-capture/weak": [],
    "viper-module/strong": [
      Finding(
        rule: "strong-back-reference", title: "strong back reference",
        line: "var output: (any ProfileInteractorOutput)?")
    ],
    "viper-module/weak": [],
  ]
}
