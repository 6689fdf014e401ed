/// Removes every done todo.
struct ClearDone: TodoChange {
  static let typeName = "ClearDone"

  /// Removes the done todos.
  ///
  /// - Complexity: O(n) in the number of todos.
  func updateState(_ state: inout AppState) {
    state.todos.removeAll { $0.done }
  }

  /// Always applies; clearing a list without done todos changes nothing.
  func validate(in state: AppState) throws(TodoError) {}

  /// Putting every done todo back where it was.
  ///
  /// - Complexity: O(n) in the number of todos.
  func inverse(in state: AppState) -> AnyTodoChange? {
    let placed = state.todos.enumerated().compactMap { index, todo in
      todo.done ? PlacedTodo(index: index, todo: todo) : nil
    }
    return RestoreTodos(placed).erased
  }

  /// `clear`.
  var summary: String { "clear" }

  /// Whether the change would alter `state`.
  ///
  /// - Complexity: O(n) in the number of todos.
  func changes(_ state: AppState) -> Bool {
    state.todos.contains { $0.done }
  }
}
