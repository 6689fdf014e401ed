import StateStore

/// What the list screen filters by and how it sorts: the list feature's slice.
///
/// The feature knows nothing of todos: it holds the search text, the tag filter and the sort,
/// and the app that mounts it applies them to its list.
package struct TodoListState: State, Hashable {
  /// Text the titles must hold; empty for any title.
  package var search = ""
  /// The tag the todos must have, or `nil` for any.
  package var tag: String?
  /// The order of the rows.
  package var sort = ListSort.added
  /// What is being typed into the search or tag filter, or `nil` when neither is being edited.
  package var editing: FilterField?

  /// Every todo, in the order they were added, nothing being edited.
  package init() {}
}

/// The orders the list cycles through with `s`.
package enum ListSort: String, CaseIterable, Codable, Hashable, Sendable {
  /// The order the todos were added in.
  case added
  /// Dated todos by date, then undated ones.
  case due
  /// High, medium, low, then none.
  case priority
  /// By title, without regard to case or accents.
  case title

  /// The sort after this one, back to ``added`` after the last.
  package var next: ListSort {
    let all = Self.allCases
    let index = all.firstIndex(of: self) ?? all.startIndex
    let following = all.index(after: index)
    return following == all.endIndex ? all[all.startIndex] : all[following]
  }
}

/// The filter being typed into.
package enum FilterField: String, Codable, Hashable, Sendable {
  /// `/`: the search text.
  case search
  /// `t`: the tag.
  case tag
}
