import LeakLint
import Testing

/// `captured-owner` and `combine-sink`: a closure captures the object that keeps it.
@Suite struct CapturedOwnerRuleTests {
  @Test func anAlertActionReadingItsAlertIsFlagged() {
    expectFindings(
      """
      import UIKit
      final class DraftsViewController: UIViewController {
        func confirmDelete() {
          let alert = UIAlertController(title: "Delete?", message: nil, preferredStyle: .alert)
          alert.addAction(UIAlertAction(title: "Delete", style: .destructive) { _ in  // flagged
            print(alert.title ?? "")
          })
          present(alert, animated: true)
        }
      }
      """, rule: .capturedOwner)
  }

  @Test func aTextFieldReadFromItsAlertThroughAnUnownedCaptureIsNotFlagged() {
    expectFindings(
      """
      import UIKit
      final class RenameViewController: UIViewController {
        func rename() {
          let alert = UIAlertController(title: "Rename", message: nil, preferredStyle: .alert)
          alert.addAction(UIAlertAction(title: "OK", style: .default) { [unowned alert] _ in
            print(alert.textFields?.first?.text ?? "")
          })
          alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in self.dismiss(animated: true) })
          present(alert, animated: true)
        }
      }
      """)
  }

  // MARK: combine-sink

  @Test func aSinkStoredInCancellablesCapturingSelfIsFlagged() {
    expectFindings(
      """
      import Combine
      final class SearchViewModel {
        @Published var query = ""
        var results: [String] = []
        private var cancellables = Set<AnyCancellable>()
        private var subscription: AnyCancellable?
        func bind() {
          $query.sink { self.search($0) }.store(in: &cancellables)  // flagged
          subscription = $query.map { $0.count }.sink { _ in self.results = [] }  // flagged
          $query.map { _ in [String]() }.assign(to: \\.results, on: self).store(in: &cancellables)  // flagged
        }
        func search(_ text: String) {}
      }
      """, rule: .combineSink)
  }

  @Test func weakSinksAndAssignToPublishedAreNotFlagged() {
    expectFindings(
      """
      import Combine
      final class SearchViewModel {
        @Published var query = ""
        @Published var count = 0
        private var cancellables = Set<AnyCancellable>()
        func bind() {
          $query.sink { [weak self] in self?.search($0) }.store(in: &cancellables)
          $query.map(\\.count).assign(to: &$count)
          _ = $query.sink { self.search($0) }
        }
        func search(_ text: String) {}
      }
      """)
  }

  @Test func aHandlerThatClearsItselfWhenDoneIsNotFlagged() {
    expectFindings(
      """
      import Foundation
      final class Reader {
        func read(pipe: Pipe, onData: @escaping (Data) -> Void) {
          let handle = FileHandle(fileDescriptor: 3)
          handle.readabilityHandler = { fileHandle in
            let data = fileHandle.availableData
            if data.isEmpty {
              handle.readabilityHandler = nil
            } else {
              onData(data)
            }
          }
          let other = FileHandle(fileDescriptor: 4)
          other.readabilityHandler = { _ in onData(other.availableData) }  // flagged
        }
      }
      """, rule: .capturedOwner)
  }

  @Test func aCaptureListCopyOfAPropertyStoredInThatPropertyIsNamedInTheMessage() throws {
    let code = """
      final class ImageView {
        var onTap: (() -> Void)?
        func flash() {}
      }
      final class PhotoCell {
        let imageView = ImageView()
        func configure() {
          imageView.onTap = { [imageView] in imageView.flash() }  // flagged
        }
      }
      """
    expectFindings(code, rule: .capturedOwner)
    let finding = try #require(Linter().lint(source: code).first)
    #expect(finding.message.hasPrefix("`imageView` keeps this closure"))
    #expect(finding.message.contains("captures `imageView` strongly"))
    #expect(!finding.message.contains("self"))
  }
}
