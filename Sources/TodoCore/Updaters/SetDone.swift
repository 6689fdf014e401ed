/// Marks a todo done, or open again.
struct SetDone: TodoChange {
  static let typeName = "SetDone"

  /// The todo to change.
  var id: Int
  /// `true` for done, `false` for open.
  var done: Bool

  /// Creates the change that sets todo `id`'s done flag to `done`.
  init(id: Int, done: Bool) {
    self.id = id
    self.done = done
  }

  /// Sets the flag; does nothing if the todo is gone.
  func updateState(_ state: inout AppState) {
    state.todos[id: id]?.done = done
  }

  /// Checks that the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    _ = try state.existingTodo(id)
  }

  /// Setting the flag back to what it was.
  func inverse(in state: AppState) -> AnyTodoChange? {
    guard let todo = state.todos[id: id] else { return nil }
    return .setDone(SetDone(id: id, done: todo.done))
  }

  /// `done #id` or `reopen #id`.
  var summary: String { "\(done ? "done" : "reopen") #\(id)" }

  func changes(_ state: AppState) -> Bool {
    state.todos[id: id].map { $0.done != done } ?? false
  }

  var erased: AnyTodoChange { .setDone(self) }
}
