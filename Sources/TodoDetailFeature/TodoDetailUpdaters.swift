import StateStore

/// Opens the detail of todo `id`, forgetting the last date entry.
package struct OpenTodoDetail: StateUpdater, Codable, Hashable {
  /// The todo to show.
  package var id: Int

  package init(id: Int) {
    self.id = id
  }

  package func updateState(_ state: inout TodoDetailState) {
    state = TodoDetailState(todoID: id)
  }
}

/// Closes the detail.
package struct CloseTodoDetail: StateUpdater, Codable, Hashable {
  package init() {}

  package func updateState(_ state: inout TodoDetailState) {
    state = TodoDetailState()
  }
}

/// Records that the date screen accepted `date` (`nil` for no date).
package struct AcceptDate: StateUpdater, Codable, Hashable {
  /// The date, `YYYY-MM-DD`, or `nil` for none.
  package var date: String?

  package init(date: String?) {
    self.date = date
  }

  package func updateState(_ state: inout TodoDetailState) {
    state.acceptedDate = date
    state.refusal = nil
  }
}

/// Records why the date typed was refused.
package struct RefuseDate: StateUpdater, Codable, Hashable {
  /// The reason, for the status line.
  package var reason: String

  package init(reason: String) {
    self.reason = reason
  }

  package func updateState(_ state: inout TodoDetailState) {
    state.refusal = reason
  }
}
