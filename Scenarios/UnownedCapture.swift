import ScreenKit

extension Catalogue {
  /// `unowned-capture`: a completion captures `[unowned self]` and arrives after the screen is gone.
  public static let unownedCapture = Scenario(
    id: "unowned-capture",
    title: "Unowned capture that outlives its owner",
    pattern: "download(…) { [unowned self] image in self.show(image) }, closed before it completes",
    actions: [ScenarioAction("Load cover", "Downloads the album cover; it arrives 2 s later.")],
    whyItLeaks: """
      `unowned` does not keep the screen alive, so nothing leaks and no detector complains; it \
      promises that the screen outlives the closure. Close the screen within 2 s of the tap and the \
      download completes for a freed screen: reading `self` then crashes the app.
      """,
    fix: "Capture `[weak self]` when the closure can outlive `self`: "
      + "`{ [weak self] image in self?.show(image) }`.",
    code: #"""
      func loadCover() {
        switch mode {  // leaklab:toggle
        case .strong:  // leaklab:toggle
          downloader.download("cover.jpg") { [unowned self] image in self.show(image) }  // leaklab:strong
        case .weak:  // leaklab:toggle
          downloader.download("cover.jpg") { [weak self] image in self?.show(image) }  // leaklab:weak
        }  // leaklab:toggle
      }
      """#,
    detectorBlindSpot:
      "the completion reads a freed `unowned self` and crashes (`leaklab trap unowned-capture` shows it)",
    expected: (strong: .clean, weak: .clean),
    makeScreen: { mode, environment in
      AlbumScreen(
        mode: mode,
        downloader: CoverDownloader(
          mainQueue: environment.mainQueue, activity: environment.activity,
          runsWorkThatTraps: environment.runsWorkThatTraps, completionIsUnowned: mode == .strong))
    }
  )

  /// How long a cover download takes in `unowned-capture`.
  public static let coverDownloadTime = Duration.seconds(2)
}

/// Downloads album covers; completes on the main queue two seconds later.
///
/// The simulation's part: it knows whether its requester is still alive and
/// whether the completion captures it `unowned`, so that, in the app, a
/// completion that would crash is reported instead of run.
@MainActor
final class CoverDownloader {
  let mainQueue: MainQueue
  let activity: ActivityLog?
  let runsWorkThatTraps: Bool
  let completionIsUnowned: Bool
  /// The screen the completions are for.
  weak var requester: AnyObject?

  init(mainQueue: MainQueue, activity: ActivityLog?, runsWorkThatTraps: Bool, completionIsUnowned: Bool) {
    self.mainQueue = mainQueue
    self.activity = activity
    self.runsWorkThatTraps = runsWorkThatTraps
    self.completionIsUnowned = completionIsUnowned
  }

  func download(_ name: String, completion: @escaping @MainActor @Sendable (String) -> Void) {
    let delivery = CoverDelivery(
      requester: requester, screenName: requester.map { activity?.name(of: $0) ?? "\(type(of: $0))" },
      activity: activity, runsWorkThatTraps: runsWorkThatTraps, completionIsUnowned: completionIsUnowned)
    mainQueue.asyncAfter(Catalogue.coverDownloadTime) { delivery.deliver("\(name) (80 KB)", to: completion) }
  }
}

/// One download's completion, as the main queue keeps it: in the app, a
/// completion that would read a freed `unowned self` is reported, not run.
@MainActor
struct CoverDelivery {
  weak var requester: AnyObject?
  let screenName: String?
  /// Weak: a pending download keeps nothing of the scenario but its completion.
  weak var activity: ActivityLog?
  let runsWorkThatTraps: Bool
  let completionIsUnowned: Bool

  func deliver(_ image: String, to completion: @MainActor (String) -> Void) {
    let name = screenName ?? "the screen"
    if requester == nil, completionIsUnowned, !runsWorkThatTraps {
      activity?.recordTrap(
        screenNamed: name,
        "the cover arrived: the completion reads `unowned self`, freed, and would crash the app here",
        scenarioID: "unowned-capture")
      return
    }
    if requester == nil {
      activity?.record(screenNamed: name, "the cover arrived: `[weak self]` is nil, nothing happens")
    }
    completion(image)
  }
}

/// The screen: an album with its cover.
final class AlbumScreen: Screen {
  let mode: ScenarioMode
  let downloader: CoverDownloader
  let coverLabel = Label("No cover", identifier: "album.cover")

  init(mode: ScenarioMode, downloader: CoverDownloader) {
    self.mode = mode
    self.downloader = downloader
    super.init(title: "Album")
    downloader.requester = self
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(coverLabel)
    view.addSubview(Button("Load cover") { [weak self] in self?.loadCover() })
  }

  func show(_ image: String) {
    coverLabel.text = "Cover: \(image)"
  }

  // leaklab:code begin
  func loadCover() {
    switch mode {  // leaklab:toggle
    case .strong:  // leaklab:toggle
      downloader.download("cover.jpg") { [unowned self] image in self.show(image) }  // leaklab:strong
    case .weak:  // leaklab:toggle
      downloader.download("cover.jpg") { [weak self] image in self?.show(image) }  // leaklab:weak
    }  // leaklab:toggle
  }
  // leaklab:code end
}
