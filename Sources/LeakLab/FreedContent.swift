import GraphLayout
import TextGrid

/// What the explain view shows when nothing leaked: why the fixed form is
/// freed (the leaky form's graph, drawn with the reference the fix breaks
/// dashed), why a leaky run came back clean (its marked line never ran), or
/// what a leaky form does wrong that no detector sees.
///
/// ```
/// Why is it freed? Strong delegate, fixed form (weak)
/// The fix breaks the reference drawn dashed (╎ ▽): once the screen closes,
/// nothing else holds CheckoutScreen#1, so it deallocates.
///
/// ┌───────── leaked ─┐ … the leaky form's graph, `delegate (weak)` dashed
/// ```
struct FreedContent {
  var state: AppState

  func grid(width: Int, height: Int) -> Grid {
    guard let entry = state.lastRunEntry ?? state.selectedEntry else {
      return text(
        [
          ("Nothing has leaked yet.", .title),
          ("Open a scenario in strong form, tap its actions and close it (Esc).", .plain),
        ], width: width)
    }
    let ran = state.lastRun?.id == entry.id && state.openScenario == nil && state.lastCheck != nil
    let mode = ran ? (state.lastRun?.mode ?? entry.mode) : entry.mode
    if mode == .strong, let blindSpot = entry.detectorBlindSpot {
      return text(
        [
          ("Nothing leaks in \(entry.title), and that is the trap.", .title),
          ("No leak detector can see it: \(blindSpot).", .warning),
          ("", .plain),
          ("Fix: \(entry.fix)", .success),
          ("", .plain),
          (entry.whyItLeaks, .muted),
        ], width: width)
    }
    if mode == .strong, state.lastRun == nil {
      return text(
        [
          ("Nothing has run yet.", .title),
          (
            "Enter opens \(entry.title); tap its actions and close it (Esc): its leak is explained here.",
            .plain
          ),
        ], width: width)
    }
    if mode == .strong {
      let lines: [(String, Style)] = [
        ("Nothing has leaked in this run (\(entry.title)).", .title),
        (
          state.markedLineHint.map { "The leaky line never ran: \($0)." }
            ?? "Open it, tap its actions and close it (Esc): its leak is explained here.", .plain
        ),
      ]
      return text(lines, width: width)
    }
    return whyFreed(entry, ran: ran, width: width, height: height)
  }

  /// The fixed form: the leaky form's graph, the reference the fix breaks dashed.
  private func whyFreed(_ entry: CatalogueEntry, ran: Bool, width: Int, height: Int) -> Grid {
    let heading: (String, Style) = ("Why is it freed? \(entry.title), fixed form (weak)", .title)
    let status: (String, Style) =
      ran
      ? ("This run: \(state.lastCheck.map(\.summary) ?? "checked").", .success)
      : ("Not run yet in this form: Enter opens it.", .muted)
    guard let leaky = ScenarioGraphs.strongForm(of: entry.id) else {
      return text([heading, status, ("", .plain), ("Fix: \(entry.fix)", .success)], width: width)
    }
    var graph = ScenarioGraphs.fixed(leaky)
    if !state.showsMemoryDetails { graph = MemoryDetailFolding.fold(graph) }
    let names = leaky.nodes.filter(\.isLeaked).map(\.title)
    let what = names.isEmpty ? "the screen" : names.joined(separator: ", ")
    var blocks: [Grid] = [
      text(
        [
          heading, status, ("", .plain),
          (
            "The fix breaks the reference drawn dashed (╎ ▽): after the close nothing else holds \(what), "
              + "so \(names.count > 1 ? "they deallocate" : "it deallocates").", .plain
          ),
          ("Fix: \(entry.fix)", .success),
        ], width: width)
    ]
    blocks.append(graph.draw(fitting: Size(width: width, height: height)))
    blocks.append(graph.legend(width: width))
    return Self.joined(blocks, width: width)
  }

  private func text(_ lines: [(String, Style)], width: Int) -> Grid {
    Grid(lines: ExplainView.wrapped(lines, width: width))
  }

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
