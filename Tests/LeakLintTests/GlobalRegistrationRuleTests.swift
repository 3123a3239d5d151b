import LeakLint
import Testing

/// `global-registration`: self (or an object of the type whose code adds it) kept by a static,
/// global or singleton's collection, taken out only in its own `deinit` or never.
@Suite struct GlobalRegistrationRuleTests {
  @Test func aScreenRegisteredThroughAStaticListAndUnregisteredOnlyInDeinitIsFlagged() {
    expectFindings(
      """
      enum OpenScreens {
        private(set) static var screens: [Screen] = []
        static func register(_ screen: Screen) { screens.append(screen) }
        static func unregister(_ screen: Screen) { screens.removeAll { $0 === screen } }
      }
      class Screen {}
      final class ArticleScreen: Screen {
        func viewDidAppear() { OpenScreens.register(self) }
        deinit { OpenScreens.unregister(self) }  // flagged
      }
      """, rule: .globalRegistration)
  }

  @Test func theMessageSaysWhatKeepsSelfAndTheFixSaysWhereToRemoveIt() throws {
    let findings = Linter().lint(
      source: """
        enum OpenScreens {
          static var screens: [AnyObject] = []
          static func register(_ screen: AnyObject) { screens.append(screen) }
          static func unregister(_ screen: AnyObject) { screens.removeAll { $0 === screen } }
        }
        final class ArticleScreen {
          func viewDidAppear() { OpenScreens.register(self) }
          deinit { OpenScreens.unregister(self) }
        }
        """)
    let finding = try #require(findings.first)
    #expect(findings.count == 1)
    #expect(finding.line == 8)
    #expect(finding.message.contains("the static `OpenScreens.screens` keeps self"), "\(finding.message)")
    #expect(finding.message.contains("`OpenScreens.register(_:)` adds it in `viewDidAppear()`"))
    #expect(finding.message.contains("this removal in deinit never runs"))
    #expect(finding.fix.contains("outside deinit"))
  }

  @Test func aScreenUnregisteredWhenItDisappearsIsNotFlagged() {
    expectFindings(
      """
      enum OpenScreens {
        static var screens: [Screen] = []
        static func register(_ screen: Screen) { screens.append(screen) }
        static func unregister(_ screen: Screen) { screens.removeAll { $0 === screen } }
      }
      class Screen {
        func viewDidAppear() {}
        func viewDidDisappear() {}
      }
      final class ArticleScreen: Screen {
        override func viewDidAppear() { OpenScreens.register(self) }
        override func viewDidDisappear() { OpenScreens.unregister(self) }
        deinit { OpenScreens.unregister(self) }
      }
      """)
  }

  @Test func selfAddedToAStaticListWithNoRemovalAtAllIsFlaggedWhereItIsAdded() {
    expectFindings(
      """
      final class Plugin {
        static var loaded: [Plugin] = []
        let name: String
        init(name: String) {
          self.name = name
          Plugin.loaded.append(self)  // flagged
        }
      }
      """, rule: .globalRegistration)
  }

  @Test func aFactoryAddingEveryObjectItMakesWithNoRemovalIsFlagged() {
    expectFindings(
      """
      final class Job {
        static var all: [Job] = []
        let name: String
        init(name: String) { self.name = name }
        static func make(_ name: String) -> Job {
          let job = Job(name: name)
          all.append(job)  // flagged
          return job
        }
      }
      """, rule: .globalRegistration)
  }

  @Test func aRemovalOnlyDeinitReachesThroughAnotherFunctionIsFlagged() {
    expectFindings(
      """
      var activeUploads: Set<Upload> = []
      final class Upload: Hashable {
        static func == (a: Upload, b: Upload) -> Bool { a === b }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        func start() { activeUploads.insert(self) }
        private func forget() { activeUploads.remove(self) }
        deinit { forget() }  // flagged
      }
      """, rule: .globalRegistration)
  }

  @Test func aGlobalSetEmptiedWhenTheUploadFinishesIsNotFlagged() {
    expectFindings(
      """
      var activeUploads: Set<Upload> = []
      final class Upload: Hashable {
        static func == (a: Upload, b: Upload) -> Bool { a === b }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        func start() { activeUploads.insert(self) }
        func finish() { activeUploads.remove(self) }
      }
      """)
  }

  @Test func aSessionKeptByIDAndRemovedOnlyInDeinitIsFlaggedAndOneClosedIsNot() {
    expectFindings(
      """
      import Foundation
      final class Session {
        static var live: [UUID: Session] = [:]
        let id = UUID()
        static func open() -> Session {
          let session = Session()
          live[session.id] = session
          return session
        }
        deinit { Session.live[id] = nil }  // flagged
      }
      final class Connection {
        static var connected: [UUID: Connection] = [:]
        let id = UUID()
        func accept() { Self.connected[id] = self }
        func close() { Self.connected[id] = nil }
      }
      """, rule: .globalRegistration)
  }

  @Test func aSingletonsListKeepingSelfUntilDeinitIsFlagged() {
    expectFindings(
      """
      final class PlaybackRegistry {
        static let shared = PlaybackRegistry()
        private init() {}
        private var players: [Player] = []
        func add(_ player: Player) { players.append(player) }
        func remove(_ player: Player) { players.removeAll { $0 === player } }
      }
      final class Player {
        func play() { PlaybackRegistry.shared.add(self) }
        deinit { PlaybackRegistry.shared.remove(self) }  // flagged
      }
      """, rule: .globalRegistration)
  }

  @Test func weakBoxesWeakTablesAndIdentifiersKeepNothing() {
    expectFindings(
      """
      import Foundation
      struct WeakBox { weak var value: AnyObject? }
      enum Observers {
        static var boxes: [WeakBox] = []
        static var identifiers: Set<ObjectIdentifier> = []
        static var byID: [ObjectIdentifier: WeakBox] = [:]
        static let table = NSHashTable<AnyObject>.weakObjects()
      }
      final class Screen {
        func viewDidAppear() {
          Observers.boxes.append(WeakBox(value: self))
          Observers.identifiers.insert(ObjectIdentifier(self))
          Observers.byID[ObjectIdentifier(self)] = WeakBox(value: self)
          Observers.table.add(self)
        }
        deinit { Observers.identifiers.remove(ObjectIdentifier(self)) }
      }
      """)
  }

  @Test func aCacheByKeyAListSelfOwnsAndASingletonItselfAreNotFlagged() {
    expectFindings(
      """
      import Foundation
      final class ImageLoader {
        static var loaders: [URL: ImageLoader] = [:]
        let url: URL
        init(url: URL) { self.url = url }
        static func loader(for url: URL) -> ImageLoader {
          if let known = loaders[url] { return known }
          let loader = ImageLoader(url: url)
          loaders[url] = loader
          return loader
        }
      }
      final class TextSizer {
        static var sizers: [TextSizer] = []
        let font: String
        init(font: String) { self.font = font }
        static func sizer(for font: String) -> TextSizer {
          if let known = sizers.first(where: { $0.font == font }) { return known }
          let sizer = TextSizer(font: font)
          sizers.append(sizer)
          return sizer
        }
      }
      final class Node {
        var children: [Node] = []
        func adopt(_ child: Node) { children.append(child) }
        func attach(to parent: Node) { parent.children.append(self) }
      }
      final class Analytics {
        static let shared = Analytics()
        static var all: [Analytics] = []
        private init() { Analytics.all.append(self) }
      }
      """)
  }

  @Test func anObjectRegisteredInADeinitOrARegistrationOfAnotherTypesObjectIsNotFlagged() {
    expectFindings(
      """
      final class Formatter {}
      enum Formatters {
        static var all: [Formatter] = []
      }
      final class Report {
        func render() { Formatters.all.append(Formatter()) }
        deinit { Formatters.all.append(Formatter()) }
      }
      """)
  }
}
