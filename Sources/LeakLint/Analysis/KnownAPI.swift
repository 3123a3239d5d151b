/// What the linter knows of framework APIs it cannot read: which calls keep a
/// closure or an object, which hold one from a root, which tear one down.
///
/// Everything else is assumed to run its closure and let it go (`map`,
/// `forEach`, `withLock`, `UIView.animate`, `DispatchQueue.async`): the linter
/// reports nothing it cannot see being kept.
enum KnownAPI {
  enum Semantics: Equatable {
    /// The receiver keeps the first argument (`append`, `addSubview`, `addAction`).
    case receiverKeepsFirstArgument
    /// The receiver keeps the closures passed to it until a teardown (`player.addPeriodicTimeObserver { … }`).
    case receiverKeepsClosures
    /// The result keeps the closure arguments (`UIAlertAction(…handler:)`, `Task { }`).
    case resultKeepsClosures(ClosureInfo.Tag)
    /// `sink`: the result keeps its closures and those of the operators before it.
    case subscription
    /// `assign(to:on:)`: the result keeps the object passed as `on:`.
    case assignOn
    /// `store(in: &set)`: the set keeps the receiver.
    case storeIn
    /// A root keeps the closure or target until a teardown call.
    case root(APIUse.Kind)
  }

  /// Calls after which the receiver keeps the first argument.
  static let receiverKeeps: Set<String> = [
    "append", "insert", "addSubview", "addArrangedSubview", "insertSubview", "addChild", "addSublayer",
    "addAction", "addGestureRecognizer", "addInteraction", "updateValue",
  ]

  /// Initializers whose object keeps the closures passed to it.
  static let closureKeepingTypes: Set<String> = [
    "UIAlertAction", "UIAction", "UIContextualAction", "UIBarButtonItem", "UIButton", "BlockOperation",
    "UIKeyCommand", "UIDeferredMenuElement", "AnyCancellable", "UICommand",
  ]

  /// Names that tear down what a root keeps, by the kind of root.
  static func teardownNames(for kind: APIUse.Kind) -> Set<String> {
    switch kind {
    case .timer: ["invalidate", "cancel"]
    case .observer: ["removeObserver"]  // of a token: `removeObserver(self)` does not remove a block
    case .dispatchSource: ["cancel"]
    case .urlSession: ["invalidateAndCancel", "finishTasksAndInvalidate"]
    case .delayed: []
    }
  }

  /// URL session calls that keep their completion handler until the response arrives (a cancelled
  /// task still calls it, with an error): it runs later, when its caller may have gone.
  static let requestCalls: Set<String> = ["dataTask", "downloadTask", "uploadTask"]

  /// Calls that empty a collection, or take elements out of it.
  static let drainingCalls: Set<String> = [
    "removeAll", "removeValue", "removeFirst", "removeLast", "popFirst", "popLast", "remove",
    "removeSubrange",
  ]

  /// Every teardown name the walk records.
  static let teardownCalls: Set<String> = [
    "invalidate", "cancel", "removeObserver", "invalidateAndCancel", "finishTasksAndInvalidate", "removeAll",
    "removeTimeObserver",
  ]

  /// Protocols whose conformer is the application's delegate, alive as long as the process.
  static let applicationDelegateProtocols: Set<String> = [
    "UIApplicationDelegate", "NSApplicationDelegate", "WKApplicationDelegate", "WKExtensionDelegate",
  ]

  /// SwiftUI property wrappers of an object a view shares with the framework (it outlives any one view value).
  static let objectWrapperAttributes: Set<String> = ["StateObject", "ObservedObject", "EnvironmentObject"]

  /// Framework parameter types whose object keeps the object whose method receives it:
  /// a SwiftNIO `ChannelHandlerContext` keeps its handler.
  static let ownerParameterTypes: Set<String> = ["ChannelHandlerContext"]

  /// RxSwift's subscribing calls and the labels of their closures.
  static let reactiveSubscribeNames: Set<String> = ["subscribe", "drive", "emit", "bind"]
  static let reactiveClosureLabels: Set<String> = [
    "onNext", "onError", "onCompleted", "onSuccess", "onFailure", "onDisposed", "onCompletion",
  ]

  /// Properties UIKit classes keep strongly, for code whose superclass is not in the linted files.
  static let ownedInheritedProperties: Set<String> = [
    "view", "contentView", "navigationItem", "tableView", "collectionView", "layer", "tabBarItem",
    "backgroundView", "textLabel", "detailTextLabel", "imageView", "refreshControl", "inputAccessoryView",
    "editButtonItem", "toolbarItems",
  ]

  /// What a call does, judged by its name, labels and callee type name.
  static func semantics(
    name: String, labels: [String?], trailingLabels: [String?], isInitializer: Bool, hasClosureArgument: Bool,
    repeatsFalse: Bool
  ) -> Semantics? {
    let allLabels = labels + trailingLabels
    if isInitializer {
      switch name {
      case "Task": return .resultKeepsClosures(.task)
      case "URLSession" where labels.contains("delegate"): return .root(.urlSession)
      case "Timer" where hasClosureArgument && !repeatsFalse: return .root(.timer)
      case "CADisplayLink" where labels.contains("target"): return .root(.timer)
      default:
        return closureKeepingTypes.contains(name) && hasClosureArgument ? .resultKeepsClosures(.none) : nil
      }
    }
    switch name {
    case "detached" where hasClosureArgument: return .resultKeepsClosures(.task)
    case "sink": return .subscription
    case "assign" where labels.contains("on"): return .assignOn
    case "store" where labels == ["in"]: return .storeIn
    case "disposed" where labels == ["by"]: return .storeIn
    case let name
    where reactiveSubscribeNames.contains(name) && hasClosureArgument
      && allLabels.allSatisfy({ $0 == nil || reactiveClosureLabels.contains($0!) || $0 == "with" })
      && allLabels.contains(where: { $0.map(reactiveClosureLabels.contains) == true }):
      return .subscription
    case "addPeriodicTimeObserver", "addBoundaryTimeObserver": return .receiverKeepsClosures
    case "observe" where hasClosureArgument: return .resultKeepsClosures(.combine)
    case "asyncAfter": return .root(.delayed)
    case "scheduledTimer" where !repeatsFalse && (hasClosureArgument || labels.contains("target")):
      return .root(.timer)
    case "scheduleRepeatedTask", "scheduleRepeatedAsyncTask": return .root(.timer)
    case "addObserver" where allLabels.contains("forName"): return .root(.observer)
    // A registration handler runs once and is let go: only the event handler is kept.
    case "setEventHandler": return .root(.dispatchSource)
    default: return receiverKeeps.contains(name) ? .receiverKeepsFirstArgument : nil
    }
  }
}
