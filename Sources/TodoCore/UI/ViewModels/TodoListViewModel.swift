/// What the `list` screen shows: every todo's id, title and state, in order.
///
/// The screen's view is connected with `store.connect(_:)`, so it is updated only when a row it
/// shows differs; a change elsewhere in the state costs it nothing.
struct TodoListViewModel: ViewModelWithState {
  /// One line of the list.
  struct Row: Equatable, Sendable, Identifiable {
    /// The todo's id.
    let id: Int
    /// The todo's title.
    let title: String
    let done: Bool
  }

  /// The rows, in the list's order.
  let rows: [Row]

  /// The number of rows that are done.
  var doneCount: Int { rows.lazy.filter(\.done).count }

  /// The rows' ids, in order.
  var ids: [Int] { rows.map(\.id) }

  /// Projects the todos of `state`.
  ///
  /// - Complexity: O(todos).
  init(state: AppState) {
    rows = state.todos.map { Row(id: $0.id, title: $0.title, done: $0.done) }
  }
}
