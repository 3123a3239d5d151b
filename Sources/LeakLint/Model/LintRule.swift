/// The rules `leaklab lint` checks, one for each leak pattern of the catalogue
/// and its close relatives.
///
/// Every rule decides by ownership, not by names: a closure is reported only
/// when something it captures strongly keeps it (a cycle) or when a known root
/// (a run loop, the notification center, a dispatch source, a session) keeps
/// it without a matching teardown; an object, when a static or global
/// collection keeps it and only its `deinit` (or nothing) takes it out. Each
/// rule has a short title, the cycle in one sentence, and the fix.
///
/// ```swift
/// let rule = LintRule.methodReference
/// print(rule.title)   // "method reference stores self"
/// print(rule.fix)     // "Pass a closure that captures weakly: …"
/// ```
public enum LintRule: String, Sendable, Hashable, Codable, CaseIterable {
  /// A closure that self (or something self owns) keeps captures self strongly.
  case storedClosure = "stored-closure"
  /// A method passed or stored as a closure (`handleResponse`) captures self, and self keeps it.
  case methodReference = "method-reference"
  /// A `lazy var` closure captures self, and self keeps it from its first use on.
  case lazyClosure = "lazy-closure"
  /// A closure captures a local object that keeps the closure (an alert and its action).
  case capturedOwner = "captured-owner"
  /// A Combine subscription that self keeps captures self (`sink`, `assign(to:on: self)`).
  case combineSink = "combine-sink"
  /// A task loops over a sequence that never ends and captures self strongly: self lives as long as the task.
  case taskLoop = "task-loop"
  /// A task loops for ever working for self, which it captures weakly: self goes, the task keeps running.
  case taskZombie = "task-zombie"
  /// An `unowned` capture in a block something runs after self may have gone: a crash, not a leak.
  case unownedCapture = "unowned-capture"
  /// A strong stored reference back to an object that owns the holder (a delegate, an output, a parent).
  case strongBackReference = "strong-back-reference"
  /// A NotificationCenter block observer captures self and is never removed outside `deinit`.
  case notificationObserver = "notification-observer"
  /// A repeating timer's block or target holds self and the timer is never invalidated outside `deinit`.
  case repeatingTimer = "repeating-timer"
  /// A dispatch source's handler holds self and the source is never cancelled outside `deinit`.
  case dispatchSource = "dispatch-source"
  /// A URLSession made with `delegate: self` is never invalidated, so it keeps self.
  case urlSessionDelegate = "urlsession-delegate"
  /// `asyncAfter` keeps self until its block runs: a temporary leak.
  case delayedDispatch = "delayed-dispatch"
  /// self is added to a static or global collection (or a singleton's) and taken out only in `deinit`, or never.
  case globalRegistration = "global-registration"

  /// A short title, as the app's code pane shows it: `closure stores self`.
  public var title: String {
    switch self {
    case .storedClosure: "closure stores self"
    case .methodReference: "method reference stores self"
    case .lazyClosure: "lazy closure stores self"
    case .capturedOwner: "closure captures its owner"
    case .combineSink: "subscription stores self"
    case .taskLoop: "endless task stores self"
    case .taskZombie: "endless task outlives self"
    case .unownedCapture: "unowned capture outlives self"
    case .strongBackReference: "strong back reference"
    case .notificationObserver: "observer block keeps self"
    case .repeatingTimer: "repeating timer keeps self"
    case .dispatchSource: "dispatch source keeps self"
    case .urlSessionDelegate: "URLSession keeps its delegate"
    case .delayedDispatch: "delayed block keeps self"
    case .globalRegistration: "global list keeps self"
    }
  }

  /// Why it leaks, in one sentence.
  public var explanation: String {
    switch self {
    case .storedClosure:
      "self keeps the closure (in a property, a collection or an object it owns) and the closure keeps self: a cycle."
    case .methodReference:
      "Passing a method as a closure captures self strongly although no `self` is written; self keeps that closure: a cycle."
    case .lazyClosure:
      "A `lazy var` closure may use self because it is made after init, but self stores it: from its first use on, a cycle."
    case .capturedOwner:
      "The closure captures an object that keeps the closure (an alert keeps its actions, an action its handler): a cycle."
    case .combineSink:
      "self keeps the subscription, the subscription keeps its closure, and the closure captures self: a cycle."
    case .taskLoop:
      "A task keeps its closure, and the self it captures, until it finishes, and a loop over a sequence that never ends never finishes."
    case .taskZombie:
      "A weak capture lets self go, but a task whose loop never ends keeps running, and holding its stream, after self is gone."
    case .unownedCapture:
      "Something that outlives self (a queue, a timer, the notification center, a task, a request) runs the block later, and an unowned self that has gone traps."
    case .strongBackReference:
      "The holder is owned, directly or through objects it owns, by the object this property points back to: a cycle."
    case .notificationObserver:
      "The notification center keeps a block observer until it is removed, and removal in `deinit` never runs while the block keeps self."
    case .repeatingTimer:
      "The run loop keeps a repeating timer until it is invalidated, and the timer keeps its block or target, which keeps self."
    case .dispatchSource:
      "A resumed dispatch source keeps its handlers until it is cancelled, and the handler keeps self."
    case .urlSessionDelegate:
      "A URLSession keeps its delegate strongly until it is invalidated, so self lives as long as the session."
    case .delayedDispatch:
      "The queue keeps the block, and the self it captures, until it runs: self outlives its screen for the delay."
    case .globalRegistration:
      "A static or global collection lives as long as the process and keeps what is added to it, and a removal in `deinit` never runs while it does: no cycle, abandoned memory."
    }
  }

  /// The fix, in one line.
  public var fix: String {
    switch self {
    case .storedClosure:
      "Capture weakly: `{ [weak self] in … self?.… }` (or `[unowned self]` if self surely outlives it)."
    case .methodReference:
      "Pass a closure that captures weakly: `{ [weak self] in self?.method($0) }`."
    case .lazyClosure: "Capture weakly in the lazy closure: `{ [weak self] … in … }` (or `[unowned self]`)."
    case .capturedOwner: "Capture the owner unowned or weak: `{ [unowned alert] _ in … }`."
    case .combineSink:
      "Capture weakly in the subscriber (`[weak self]`), or use `assign(to: &$property)` instead of `assign(to:on: self)`."
    case .taskLoop:
      "Capture weakly (`[weak self]`) and cancel the task when done (`task?.cancel()`, not in deinit)."
    case .taskZombie:
      "Cancel the task when done (`task?.cancel()` in `viewDidDisappear` or `stop()`), or leave the loop once self is gone (`guard let self else { return }`)."
    case .unownedCapture: "Capture weakly (`[weak self]`): the block runs when self may have gone."
    case .strongBackReference: "Declare the back reference `weak var` (or `unowned`)."
    case .notificationObserver:
      "Capture weakly in the block (`[weak self]`) and remove the observer when done, not only in deinit."
    case .repeatingTimer:
      "Capture weakly (`[weak self]`) and invalidate the timer when done (`timer?.invalidate()`, not in deinit)."
    case .dispatchSource:
      "Capture weakly in the handler (`[weak self]`) and cancel the source when done (not in deinit)."
    case .urlSessionDelegate:
      "Call `session.finishTasksAndInvalidate()` (or `invalidateAndCancel()`) when done."
    case .delayedDispatch: "Capture weakly (`[weak self]`) if self may go away before the block runs."
    case .globalRegistration:
      "Remove it when done, outside deinit (`viewDidDisappear`, `stop()`, `close()`), or keep it weakly (a weak box, `NSHashTable.weakObjects()`)."
    }
  }

  /// The default severity: `note` for a temporary leak, else `warning`.
  public var severity: LintSeverity {
    self == .delayedDispatch ? .note : .warning
  }
}
