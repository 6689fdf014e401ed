/// Gives a todo a due date, or takes it away.
///
/// The payload holds the calendar date, never `today` or `+3d`: those are resolved when the
/// command runs, so a replay under another clock gives the same list.
struct SetDue: TodoChange {
  static let typeName = "SetDue"

  /// The todo to change.
  var id: Int
  /// The new due date; `nil` for none.
  var due: CalendarDate?

  /// Creates the change that sets todo `id`'s due date to `due`.
  init(id: Int, due: CalendarDate?) {
    self.id = id
    self.due = due
  }

  /// Sets the date; does nothing if the todo is gone.
  func updateState(_ state: inout AppState) {
    state.todos[id: id]?.due = due
  }

  /// Checks that the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    _ = try state.existingTodo(id)
  }

  /// Setting the old date back.
  func inverse(in state: AppState) -> AnyTodoChange? {
    guard let todo = state.todos[id: id] else { return nil }
    return .setDue(SetDue(id: id, due: todo.due))
  }

  /// `due #id 2026-03-01` or `due #id none`.
  var summary: String { "due #\(id) " + (due.map(\.description) ?? "none") }

  func changes(_ state: AppState) -> Bool {
    state.todos[id: id].map { $0.due != due } ?? false
  }

  var erased: AnyTodoChange { .setDue(self) }
}
