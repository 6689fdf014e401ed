/// Removes every done todo.
public struct ClearDone: TodoChange {
  /// The name recorded in the action log.
  public static let typeName = "ClearDone"

  /// Creates the change.
  public init() {}

  /// Removes the done todos.
  ///
  /// - Complexity: O(n) in the number of todos.
  public func updateState(_ state: inout AppState) {
    state.todos.removeAll { $0.done }
  }

  /// Always applies; clearing a list without done todos changes nothing.
  public func validate(in state: AppState) throws(TodoError) {}

  /// Putting every done todo back where it was.
  ///
  /// - Complexity: O(n) in the number of todos.
  public func inverse(in state: AppState) -> AnyTodoChange? {
    let placed = state.todos.enumerated().compactMap { index, todo in
      todo.done ? PlacedTodo(index: index, todo: todo) : nil
    }
    return .restoreTodos(RestoreTodos(placed))
  }

  /// `clear`.
  public var summary: String { "clear" }

  /// Whether the change would alter `state`.
  ///
  /// - Complexity: O(n) in the number of todos.
  public func changes(_ state: AppState) -> Bool {
    state.todos.contains { $0.done }
  }

  /// This change, type-erased.
  public var erased: AnyTodoChange { .clearDone(self) }
}
