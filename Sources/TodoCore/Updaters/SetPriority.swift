/// Gives a todo a priority, or takes it away.
struct SetPriority: TodoChange {
  static let typeName = "SetPriority"

  /// The todo to change.
  var id: Int
  /// The new priority; `nil` for none.
  var priority: Priority?

  /// Creates the change that sets todo `id`'s priority to `priority`.
  init(id: Int, priority: Priority?) {
    self.id = id
    self.priority = priority
  }

  /// Sets the priority; does nothing if the todo is gone.
  func updateState(_ state: inout AppState) {
    state.todos[id: id]?.priority = priority
  }

  /// Checks that the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    _ = try state.existingTodo(id)
  }

  /// Setting the old priority back.
  func inverse(in state: AppState) -> AnyTodoChange? {
    guard let todo = state.todos[id: id] else { return nil }
    return .setPriority(SetPriority(id: id, priority: todo.priority))
  }

  /// `priority #id high` or `priority #id none`.
  var summary: String { "priority #\(id) " + (priority?.rawValue ?? "none") }

  func changes(_ state: AppState) -> Bool {
    state.todos[id: id].map { $0.priority != priority } ?? false
  }

  var erased: AnyTodoChange { .setPriority(self) }
}
