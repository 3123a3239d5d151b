import TextGrid

extension KeyMap {
  /// The keys of `leaklab watch`: the same keys as the catalogue app's
  /// (``standard``) for the same intents — arrows and j/k move, Tab moves the
  /// focus, Enter opens (here: why is it alive?), Esc closes, `/` filters,
  /// `y` copies a path, `r` writes the report, `?` help, `q` quits — and
  /// `m` mark, `s` sort, `p` pause, `i` the refresh period.
  public static let watch = KeyMap([
    KeyBinding(
      [
        (.up, .moveUpPressed), (.down, .moveDownPressed),
        (.character("k"), .moveUpPressed), (.character("j"), .moveDownPressed),
      ],
      label: "↑↓ k j",
      help: "Move: the selected type or leak, else scroll the focused pane or the explain view",
      hint: "move", shownIn: [.pane, .explain, .help], hintOverrides: [.explain: "scroll", .help: "scroll"]),
    KeyBinding(
      [(.tab, .focusNextPressed), (.backTab, .focusPreviousPressed)], label: "Tab Shift-Tab",
      help: "Move the focus to the next or previous pane: types, leaks, instances", hint: "pane",
      shownIn: [.pane]),
    KeyBinding(
      [
        (.pageUp, .scrollKeyPressed(.pageUp)), (.pageDown, .scrollKeyPressed(.pageDown)),
        (.home, .scrollKeyPressed(.top)), (.end, .scrollKeyPressed(.bottom)),
        (.character("g"), .scrollKeyPressed(.top)), (.character("G"), .scrollKeyPressed(.bottom)),
      ],
      label: "PgUp PgDn Home End g G", help: "Move or scroll by a page, or to the first or last line",
      shownIn: []),
    KeyBinding(
      [.enter], .openKeyPressed,
      help:
        "Why is it alive? The selected type's newest instance (new since the mark), or one leak of the selected kind: its path from a true root or its cycle, drawn, with the retain-count accounting",
      hint: "why alive", shownIn: [.pane, .filtering], hintOverrides: [.filtering: "keep filter"]),
    KeyBinding(
      [.escape, .backspace], .closeKeyPressed, help: "Close the explain view, the help or the filter",
      hint: "close", shownIn: [.explain, .help, .filtering], hintOverrides: [.filtering: "clear filter"]),
    KeyBinding(
      [.character("m")], .markKeyPressed,
      help: "Set the mark: the change column and new instances count from the census on screen",
      hint: "mark", shownIn: [.pane]),
    KeyBinding(
      [.character("s")], .sortKeyPressed,
      help: "Sort the types by bytes, by count, or by change since the mark",
      shownIn: []),
    KeyBinding(
      [.character("/")], .filterKeyPressed,
      help: "Filter the types: type part of a name; Enter keeps the filter, Esc clears it", hint: "filter",
      shownIn: [.pane]),
    KeyBinding(
      [.character("p")], .pauseKeyPressed, help: "Pause or resume the snapshots (the process runs on)",
      shownIn: []),
    KeyBinding(
      [.character("i")], .periodKeyPressed,
      help: "The refresh period: 1, 2, 5 or 10 seconds between snapshots",
      shownIn: []),
    KeyBinding(
      [.character("y")], .copyKeyPressed,
      help:
        "Copy the path on screen to the clipboard (OSC 52: the terminal keeps it; in tmux, with set-clipboard on)",
      hint: "copy", shownIn: [.explain]),
    KeyBinding(
      [.character("r")], .reportKeyPressed,
      help:
        "Write the report (types, counts since the start, the mark, leaks) as JSON; the status bar shows the file",
      shownIn: []),
    KeyBinding(
      [.character("?")], .helpKeyPressed, help: "Show or hide this help", hint: "help",
      shownIn: Set(KeyContext.allCases).subtracting([.filtering])),
    KeyBinding(
      [.character("q"), .control("c")], .quitKeyPressed,
      help: "Quit: a process given with --pid runs on; a program watch started gets SIGTERM", hint: "quit",
      shownIn: Set(KeyContext.allCases).subtracting([.filtering])),
  ])
}
