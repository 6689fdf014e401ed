import TerminalKit
import TodoListFeature

/// What the `list` screen shows: the todos its filters pick, in its sort, with their tags, due
/// dates and priorities, and the filters themselves.
///
/// The screen's view is connected with `store.connect(_:)`, so it is updated only when a row it
/// shows or a filter differs; a change elsewhere in the state costs it nothing.
struct TodoListViewModel: ViewModelWithState {
  /// One line of the list.
  struct Row: Equatable, Sendable, Identifiable {
    /// The todo's id.
    let id: Int
    /// The todo's title.
    let title: String
    let done: Bool
    /// The todo's tags, as first written.
    let tags: [String]
    /// When it is due, if ever.
    let due: CalendarDate?
    /// How much it matters, if said.
    let priority: Priority?
  }

  /// The rows, in the list's order.
  let rows: [Row]
  /// The filters and the sort, as the list feature holds them.
  let filters: TodoListState

  /// The number of rows that are done.
  var doneCount: Int { rows.lazy.filter(\.done).count }

  /// The rows' ids, in order.
  var ids: [Int] { rows.map(\.id) }

  /// Projects the todos of `state` that its list filters pick, in its sort.
  ///
  /// - Complexity: O(n log n) for n todos with a sort, O(n) without.
  init(state: AppState) {
    filters = state.list
    let selection = TodoSelection(
      tags: state.list.tag.map { [$0] } ?? [], search: state.list.search,
      sort: Self.sortKey(state.list.sort))
    let todos =
      selection.selectsEverything
      ? state.todos.elements : selection.apply(to: state.todos.elements)
    rows = todos.map {
      Row(
        id: $0.id, title: $0.title, done: $0.done, tags: $0.tags, due: $0.due,
        priority: $0.priority)
    }
  }

  /// The app's sort for the list feature's.
  static func sortKey(_ sort: ListSort) -> SortKey? {
    switch sort {
    case .added: nil
    case .due: .due
    case .priority: .priority
    case .title: .title
    }
  }
}
