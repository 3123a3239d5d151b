import TextGrid

extension KeyMap {
  /// LeakLab's keys, as people who use htop, lazygit and k9s expect them:
  /// arrows and j/k move, Tab moves the focus between panes, the page keys
  /// and g/G scroll, Enter opens, Esc closes, `/` filters, `w` switches
  /// strong/weak, 1–9 and Space tap actions, `o` overlay, `e` explain, `y`
  /// copies a retain path, `r` writes a report, the mouse clicks and scrolls,
  /// `?` help, `q` and Ctrl-C quit.
  public static let standard = KeyMap([
    KeyBinding(
      [
        (.up, .moveUpPressed), (.down, .moveDownPressed),
        (.character("k"), .moveUpPressed), (.character("j"), .moveDownPressed),
      ],
      label: "↑↓ k j",
      help:
        "Move: the selection in the catalogue, the leak cursor in the detector, else scroll the focused pane",
      hint: "select", shownIn: [.pane, .explain, .filtering, .comparison],
      hintOverrides: [.pane: "move", .explain: "scroll", .comparison: "scroll"]),
    KeyBinding(
      [(.tab, .focusNextPressed), (.backTab, .focusPreviousPressed)], label: "Tab Shift-Tab",
      help: "Move the focus to the next or previous pane (in the explain view: the next or previous leak)",
      hint: "pane", shownIn: [.browsing, .scenario, .pane]),
    KeyBinding(
      [(.pageUp, .scrollKeyPressed(.pageUp)), (.pageDown, .scrollKeyPressed(.pageDown))],
      label: "PgUp PgDn", help: "Scroll the focused pane (or the explain view) by a page",
      hint: "page", shownIn: [.pane]),
    KeyBinding(
      [
        (.home, .scrollKeyPressed(.top)), (.end, .scrollKeyPressed(.bottom)),
        (.character("g"), .scrollKeyPressed(.top)), (.character("G"), .scrollKeyPressed(.bottom)),
      ],
      label: "Home End g G", help: "Go to the first or last line of the focused pane", shownIn: []),
    KeyBinding(
      [
        (.left, .scrollKeyPressed(.left)), (.right, .scrollKeyPressed(.right)),
        (.character("h"), .scrollKeyPressed(.left)), (.character("l"), .scrollKeyPressed(.right)),
      ],
      label: "←→ h l", help: "Scroll sideways where the content is wider than its pane", shownIn: []),
    KeyBinding(
      [.enter], .openKeyPressed, help: "Open the selected scenario: push its screen on the phone",
      hint: "open", shownIn: [.browsing, .filtering], hintOverrides: [.filtering: "keep filter"]),
    KeyBinding(
      [.escape, .backspace], .closeKeyPressed,
      help:
        "Close the alert or screen on top (closing the screen starts the leak check), a view, or the filter",
      hint: "close", shownIn: [.scenario, .alert, .help, .explain, .filtering, .comparison],
      hintOverrides: [.filtering: "clear filter"]),
    KeyBinding(
      [.character("/")], .filterKeyPressed,
      help: "Filter the catalogue: type part of a title or id; Enter keeps the filter, Esc clears it",
      hint: "filter", shownIn: [.browsing]),
    KeyBinding(
      [.character("w")], .captureToggled,
      help: "Switch the selected scenario between strong (leaky) and weak (fixed)",
      hint: "strong/weak", shownIn: [.browsing, .comparison]),
    KeyBinding(
      (1...9).map { (Key.character(Character(String($0))), AppAction.actionKeyPressed($0)) },
      label: "1–9",
      help: "Tap the action with that number: the alert's if one is shown, else the screen's",
      hint: "action", shownIn: [.scenario, .alert]),
    KeyBinding(
      [.character(" ")], .actionKeyPressed(1), help: "Tap the first action", shownIn: []),
    KeyBinding(
      [.character("o")], .overlayKeyPressed,
      help: "Show the detector overlay always, only with issues, or never",
      shownIn: []),
    KeyBinding(
      [.character("e")], .explainKeyPressed,
      help: "Explain: the selected leak's retain graph, drawn, with the fix (Tab for the other leaks)",
      hint: "explain", shownIn: [.scenario, .pane]),
    KeyBinding(
      [.character("y")], .copyKeyPressed,
      help:
        "Copy the selected leak's retain path to the clipboard (OSC 52: the terminal keeps it; in tmux, with set-clipboard on)",
      hint: "copy", shownIn: [.pane, .explain]),
    KeyBinding(
      [.character("s")], .comparisonKeyPressed,
      help: "Show the strong and weak forms side by side: the lines the fix changes, in two columns",
      shownIn: []),
    KeyBinding(
      [.character("d")], .detailsKeyPressed,
      help:
        "Show or fold the steps of a retain path through memory without type information (malloc blocks, words)",
      shownIn: []),
    KeyBinding(
      [.character("t")], .tourKeyPressed,
      help:
        "Show the guided tour from its start, or hide it (once finished or hidden, it no longer starts by itself)",
      shownIn: []),
    KeyBinding(
      [.character("r")], .reportKeyPressed,
      help:
        "Write this run's report (label, leaks, retain paths, log) as JSON; the status bar shows the file",
      shownIn: []),
    KeyBinding(
      [
        .mouse(MouseEvent(.press, at: .zero)), .mouse(MouseEvent(.wheelUp, at: .zero)),
        .mouse(MouseEvent(.wheelDown, at: .zero)),
      ], .mouseUsed(MouseEvent(.press, at: .zero)), label: "Click Wheel",
      help: "Click: focus a pane, select a scenario or a leak; the wheel scrolls the pane under the pointer",
      shownIn: []),
    // While the filter is typed, `?` and `q` are text: their hints would mislead.
    KeyBinding(
      [.character("?")], .helpKeyPressed, help: "Show or hide this help", hint: "help",
      shownIn: Set(KeyContext.allCases).subtracting([.filtering])),
    KeyBinding(
      [.character("q"), .control("c")], .quitKeyPressed, help: "Quit", hint: "quit",
      shownIn: Set(KeyContext.allCases).subtracting([.filtering])),
  ])
}
