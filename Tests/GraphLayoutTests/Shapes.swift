import GraphLayout
import Testing

/// The shapes every drawing is tested on: the ones retain graphs take.
enum Shape: String, CaseIterable, CustomTestStringConvertible {
  case selfLoop = "self-loop"
  case twoNodeCycle = "two-node-cycle"
  case threeNodeCycle = "three-node-cycle"
  case sixNodeCycle = "six-node-cycle"
  case rootPathToCycle = "root-path-to-cycle"
  case manyEdges = "many-edges"

  var testDescription: String { rawValue }

  typealias Node = ReferenceGraph.Node
  typealias Edge = ReferenceGraph.Edge

  var graph: ReferenceGraph {
    switch self {
    case .selfLoop:
      // Operation.completionBlock = { self.finish() }: the closure captures
      // only self, so its context is the operation itself.
      ReferenceGraph(
        nodes: [Node(id: "DownloadOperation_1", title: "DownloadOperation#1", isLeaked: true)],
        edges: [
          Edge(
            from: "DownloadOperation_1", to: "DownloadOperation_1", label: "completionBlock",
            closure: "closure in DownloadOperation.start()", isCulprit: true)
        ])
    case .twoNodeCycle:
      ReferenceGraph(
        nodes: [
          Node(id: "LoadFeedUseCase_1", title: "LoadFeedUseCase#1", isLeaked: true),
          Node(id: "FeedService_1", title: "FeedService#1", isLeaked: true),
        ],
        edges: [
          Edge(from: "LoadFeedUseCase_1", to: "FeedService_1", label: "service"),
          Edge(
            from: "FeedService_1", to: "LoadFeedUseCase_1", label: "completion",
            closure: "closure in LoadFeedUseCase.execute()", isCulprit: true),
        ])
    case .threeNodeCycle:
      ReferenceGraph(
        nodes: [
          Node(id: "AlertController_1", title: "AlertController#1", isLeaked: true),
          Node(id: "AlertAction_1", title: "AlertAction#1"),
          Node(
            id: "closure_1", title: "closure", kind: .closure,
            details: ["in DraftsScreen.confirmDelete()", "captures DraftsScreen#1, AlertController#1"]),
        ],
        edges: [
          Edge(from: "AlertController_1", to: "AlertAction_1", label: "actions[1]"),
          Edge(from: "AlertAction_1", to: "closure_1", label: "handler"),
          Edge(from: "closure_1", to: "AlertController_1", label: "captures[1]", isCulprit: true),
        ])
    case .sixNodeCycle:
      ReferenceGraph(
        nodes: [
          Node(id: "ProfileScreen_1", title: "ProfileScreen#1", isLeaked: true),
          Node(id: "ProfilePresenter_1", title: "ProfilePresenter#1"),
          Node(id: "ProfileInteractor_1", title: "ProfileInteractor#1"),
          Node(id: "ProfileService_1", title: "ProfileService#1"),
          Node(
            id: "closure_1", title: "closure", kind: .closure,
            details: ["in ProfileInteractor.load()", "captures ProfileRouter#1"]),
          Node(id: "ProfileRouter_1", title: "ProfileRouter#1"),
        ],
        edges: [
          Edge(from: "ProfileScreen_1", to: "ProfilePresenter_1", label: "presenter"),
          Edge(from: "ProfilePresenter_1", to: "ProfileInteractor_1", label: "interactor"),
          Edge(from: "ProfileInteractor_1", to: "ProfileService_1", label: "service"),
          Edge(from: "ProfileService_1", to: "closure_1", label: "completion"),
          Edge(from: "closure_1", to: "ProfileRouter_1", label: "captures[0]"),
          Edge(from: "ProfileRouter_1", to: "ProfileScreen_1", label: "screen", isCulprit: true),
        ])
    case .rootPathToCycle:
      ReferenceGraph(
        nodes: [
          Node(id: "NotificationCenter", title: "NotificationCenter", isRoot: true),
          Node(id: "Dictionary_storage", title: "Dictionary storage", kind: .collection),
          Node(
            id: "closure_1", title: "closure", kind: .closure,
            details: ["in SyncScreen.observe()", "captures SyncScreen#1"]),
          Node(id: "SyncScreen_1", title: "SyncScreen#1", isLeaked: true),
          Node(id: "SyncViewModel_1", title: "SyncViewModel#1"),
        ],
        edges: [
          Edge(
            from: "NotificationCenter", to: "Dictionary_storage", label: "word 3", strength: .conservative),
          Edge(from: "Dictionary_storage", to: "closure_1", label: "values[0]"),
          Edge(from: "closure_1", to: "SyncScreen_1", label: "captures"),
          Edge(from: "SyncScreen_1", to: "SyncViewModel_1", label: "viewModel"),
          Edge(
            from: "SyncViewModel_1", to: "SyncScreen_1", label: "onChange",
            closure: "closure in SyncScreen.bind()", isCulprit: true),
        ])
    case .manyEdges:
      ReferenceGraph(
        nodes: [
          Node(id: "CheckoutScreen_1", title: "CheckoutScreen#1", isLeaked: true),
          Node(id: "View_1", title: "View#1"),
          Node(id: "PaymentForm_1", title: "PaymentForm#1"),
          Node(id: "Coordinator_1", title: "Coordinator#1"),
          Node(id: "AppSession_1", title: "AppSession#1"),
          Node(id: "ImageCache_1", title: "ImageCache#1"),
          Node(id: "Array_storage", title: "Array storage", kind: .collection),
          Node(id: "Label_1", title: "Label#1"),
          Node(id: "Label_2", title: "Label#2"),
        ],
        edges: [
          Edge(from: "CheckoutScreen_1", to: "View_1", label: "rootView"),
          Edge(from: "CheckoutScreen_1", to: "Coordinator_1", label: "coordinator", strength: .weak),
          Edge(from: "CheckoutScreen_1", to: "AppSession_1", label: "session", strength: .unowned),
          Edge(from: "CheckoutScreen_1", to: "ImageCache_1", label: "cache", strength: .unmanaged),
          Edge(from: "CheckoutScreen_1", to: "Array_storage", label: "items"),
          Edge(from: "Array_storage", to: "Label_1", label: "[0]"),
          Edge(from: "Array_storage", to: "Label_2", label: "[1]"),
          Edge(from: "View_1", to: "PaymentForm_1", label: "subviews[1]"),
          Edge(from: "PaymentForm_1", to: "CheckoutScreen_1", label: "delegate", isCulprit: true),
          Edge(from: "Coordinator_1", to: "CheckoutScreen_1", label: "root"),
        ])
    }
  }
}
