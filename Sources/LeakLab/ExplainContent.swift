import GraphLayout
import LeakDetector
import TextGrid

/// What the explain view shows about one leaked instance, laid out for a
/// width: its status, its retain graph drawn with box-drawing characters,
/// and the catalogue's fix beside the drawing (below it when narrow). It may
/// be taller than the screen: the view scrolls it.
///
/// ```
/// 1 of 2: LoadFeedUseCase#1
/// open  alive 1 s · closed at 0.0 s, detected at 1.0 s
///
/// ┌────────── leaked ─┐                                              Fix: Pass a closure that captures
/// │ LoadFeedUseCase#1 │◀━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓    weakly: `service.run { [weak self] in
/// └─┬─────────────────┘                                         ┃    self?.handleResponse($0) }`.
///   │ service (strong)                                          ┃
/// ┌─▼──── leaked ─┐                                             ┃    Passing a method as a closure
/// │ FeedService#1 │                                             ┃    (`handleResponse`) captures `self`
/// └─┰─────────────┘                                             ┃    strongly, although no `self` is
///   ┃ completion: closure in LoadFeedUseCase.execute() (strong) ┃    written. The service keeps the
///   ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛    completion, the use case keeps the
/// ```
struct ExplainContent {
  /// The leak shown.
  var leak: LeakedInstance
  /// Its place among the run's leaks (from 1) and how many there are.
  var number: Int
  var count: Int
  /// The app's clock, for the leak's age.
  var now: Duration
  /// Its retain graph, if the explainer made one.
  var graph: ReferenceGraph?
  /// The catalogue's notes on the scenario that leaked it.
  var fix: String?
  var whyItLeaks: String?
  /// What differs in a real app (a global root the scenario injects).
  var inARealApp: String? = nil

  /// Below this width the notes go above the drawing instead of beside it.
  static let sideBySideWidth = 100

  /// The content at `width` columns; `height` is the room on screen, which
  /// decides whether a cycle can be drawn in one row.
  func grid(width: Int, height: Int) -> Grid {
    var blocks: [Grid] = [header(width: width)]
    let side = min(44, width / 3)
    let beside = graph.map { $0.draw(fitting: Size(width: width - side - 3, height: height)) }
    let whole = graph.map { $0.draw(fitting: Size(width: width, height: height)) }
    if width >= Self.sideBySideWidth, let graph, let beside, let whole, whole.height < beside.height {
      // The cycle fits in one row only with the whole width: the notes go under it.
      blocks += [whole, graph.legend(width: width), stacked(notesLines(width: width, withWhy: true))]
    } else if width >= Self.sideBySideWidth, let graph, let drawing = beside {
      let notes = Self.joined(
        [stacked(notesLines(width: side, withWhy: true)), graph.legend(width: side)], width: side)
      var row = Grid(size: Size(width: width, height: max(drawing.height, notes.height)))
      row.draw(drawing, at: .zero)
      row.draw(notes, at: Point(x: min(width - side, drawing.width + 4), y: 0))
      blocks.append(row)
    } else {
      // Narrow: the fix first, then the drawing, then why it leaks.
      blocks.append(stacked(notesLines(width: width, withWhy: false)))
      if let graph, let whole {
        blocks.append(whole)
        blocks.append(graph.legend(width: width))
      }
      if let whyItLeaks {
        blocks.append(stacked(TextWrapping.words(whyItLeaks, width: width).map { ($0, Style.muted) }))
      }
      if let inARealApp {
        blocks.append(stacked(TextWrapping.words(inARealApp, width: width).map { ($0, Style.plain) }))
      }
    }
    if graph == nil {
      blocks.append(stacked(pathLines(width: width)))
    }
    if !leak.folded.isEmpty {
      blocks.append(
        stacked(
          TextWrapping.list(
            "Also alive inside it: " + leak.folded.joined(separator: ", "), separator: ", ", width: width
          ).map { ($0, Style.muted) }))
    }
    return Self.joined(blocks.filter { $0.height > 0 }, width: width)
  }

  // MARK: Parts

  private static let blank = ("", Style.plain)

  private func header(width: Int) -> Grid {
    let status =
      OverlayView.status(of: leak, at: now) + " · closed at \(TimeFormat.tenths(leak.expectedAt))"
      + ", detected at \(TimeFormat.tenths(leak.detectedAt))"
    let statusStyle: Style = leak.isOpen ? .alert : .success
    let site =
      leak.allocationSite.map {
        TextWrapping.words($0, width: width, cutsLongWords: false).map { ($0, Style.muted) }
      } ?? []
    return stacked(
      [("\(number) of \(count): \(leak.name)".truncated(toWidth: width), .title)]
        + (status.displayWidth <= width
        ? [status] : TextWrapping.words(status, width: width, cutsLongWords: false)).map { ($0, statusStyle) }
        + site
    )
  }

  /// The fix, and (`withWhy`) why it leaks under it.
  private func notesLines(width: Int, withWhy: Bool) -> [(String, Style)] {
    var lines: [(String, Style)] = []
    if let fix {
      lines += TextWrapping.words("Fix: " + fix, width: width).map { ($0, Style.success) }
    }
    if let whyItLeaks, withWhy {
      lines.append(Self.blank)
      lines += TextWrapping.words(whyItLeaks, width: width).map { ($0, Style.muted) }
    }
    if let inARealApp, withWhy {
      lines.append(Self.blank)
      lines += TextWrapping.words(inARealApp, width: width).map { ($0, Style.plain) }
    }
    return lines
  }

  /// The text retain path, one reference a line: when there is no graph.
  private func pathLines(width: Int) -> [(String, Style)] {
    guard let path = leak.retainPath else { return [("No retain path was found for it.", .muted)] }
    var lines: [(String, Style)] = []
    let steps = path.split(separator: " → ", omittingEmptySubsequences: false).map(String.init)
    for (number, step) in steps.enumerated() {
      let prefix = number == 0 ? "" : "  → "
      for (part, text) in TextWrapping.words(step, width: max(1, width - prefix.count - 2)).enumerated() {
        lines.append(((part == 0 ? prefix : String(repeating: " ", count: prefix.count + 2)) + text, .plain))
      }
    }
    return lines
  }

  // MARK: Assembling

  /// Lines as a grid, each in its style.
  private func stacked(_ lines: [(String, Style)]) -> Grid {
    let width = lines.map(\.0.displayWidth).max() ?? 0
    var grid = Grid(size: Size(width: width, height: lines.count))
    for (y, line) in lines.enumerated() { grid.put(line.0, at: Point(x: 0, y: y), style: line.1) }
    return grid
  }

  /// `blocks` one under the other with a blank row between.
  private static func joined(_ blocks: [Grid], width: Int) -> Grid {
    let height = blocks.map(\.height).reduce(0, +) + max(0, blocks.count - 1)
    var grid = Grid(size: Size(width: max(width, blocks.map(\.width).max() ?? 0), height: height))
    var y = 0
    for block in blocks {
      grid.draw(block, at: Point(x: 0, y: y))
      y += block.height + 1
    }
    return grid
  }
}
