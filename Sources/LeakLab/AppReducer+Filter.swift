import TextGrid

/// The catalogue filter: `/`, then text; Enter keeps it, Esc clears it.
extension AppReducer {
  static func startFilter(_ state: inout AppState) {
    guard state.openScenario == nil else {
      state.notice = "Esc closes the open scenario first"
      return
    }
    state.isEditingFilter = true
    state.focus = .catalogue
  }

  /// A key typed into the filter: the list narrows as it is typed, and the
  /// selection moves to the first match when it no longer matches.
  static func editFilter(_ state: inout AppState, _ key: Key) {
    switch key {
    case .enter:
      state.isEditingFilter = false
      if state.visibleCatalogueIndices.isEmpty {
        state.notice = "No scenario matches /\(state.filter): Esc then / clears it"
      }
      return
    case .escape:
      state.isEditingFilter = false
      state.filter = ""
      return
    case .backspace:
      if !state.filter.isEmpty { state.filter.removeLast() }
    case .character(let character):
      state.filter.append(character)
    default:
      return
    }
    let visible = state.visibleCatalogueIndices
    if let first = visible.first, !visible.contains(state.selectedIndex) { select(&state, first) }
  }
}
