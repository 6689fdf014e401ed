import StateStore

/// Starts typing into `field`; what the filter holds stays, so typing continues it.
package struct BeginFilterEditing: StateUpdater, Codable, Hashable {
  /// The filter to type into.
  package var field: FilterField

  package init(_ field: FilterField) {
    self.field = field
  }

  package func updateState(_ state: inout TodoListState) {
    state.editing = field
  }
}

/// Sets the filter being typed into to `text`, applied at once: an empty tag is no tag filter.
package struct SetFilterText: StateUpdater, Codable, Hashable {
  /// The whole text of the filter now.
  package var text: String

  package init(_ text: String) {
    self.text = text
  }

  package func updateState(_ state: inout TodoListState) {
    switch state.editing {
    case .search: state.search = text
    case .tag: state.tag = text.isEmpty ? nil : text
    case nil: break
    }
  }
}

/// Stops typing into the filter, keeping it (`Enter`) or clearing it (`Esc`).
package struct EndFilterEditing: StateUpdater, Codable, Hashable {
  /// Whether the filter keeps what was typed.
  package var keep: Bool

  package init(keep: Bool) {
    self.keep = keep
  }

  package func updateState(_ state: inout TodoListState) {
    if !keep {
      switch state.editing {
      case .search: state.search = ""
      case .tag: state.tag = nil
      case nil: break
      }
    }
    state.editing = nil
  }
}

/// Moves to the next sort: added, due, priority, title, then added again.
package struct CycleSort: StateUpdater, Codable, Hashable {
  package init() {}

  package func updateState(_ state: inout TodoListState) {
    state.sort = state.sort.next
  }
}
