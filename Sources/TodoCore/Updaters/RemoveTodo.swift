/// Removes one todo.
struct RemoveTodo: TodoChange {
  static let typeName = "RemoveTodo"

  /// The todo to remove.
  var id: Int

  /// Creates the change that removes todo `id`.
  init(id: Int) {
    self.id = id
  }

  /// Removes the todo; does nothing if it is gone.
  ///
  /// - Complexity: O(n) in the number of todos.
  func updateState(_ state: inout AppState) {
    state.todos.remove(id: id)
  }

  /// Checks that the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    _ = try state.existingTodo(id)
  }

  /// Putting the todo back where it was.
  func inverse(in state: AppState) -> AnyTodoChange? {
    guard let index = state.todos.index(id: id) else { return nil }
    return RestoreTodos([PlacedTodo(index: index, todo: state.todos[index])]).erased
  }

  /// `remove #id`.
  var summary: String { "remove #\(id)" }

  func changes(_ state: AppState) -> Bool {
    state.todos.contains(id: id)
  }
}
