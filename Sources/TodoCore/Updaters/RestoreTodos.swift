/// A todo together with the position it had in the list.
struct PlacedTodo: Codable, Sendable, Hashable {
  /// The position, counted before any of the todos restored with it were put back.
  var index: Int
  var todo: Todo

  init(index: Int, todo: Todo) {
    self.index = index
    self.todo = todo
  }
}

/// Puts removed todos back at their old positions: how `undo` reverts `remove` and `clear`.
struct RestoreTodos: TodoChange {
  static let typeName = "RestoreTodos"

  /// The todos, in increasing order of position.
  var todos: [PlacedTodo]

  /// Creates the change that restores `todos`, given in increasing order of position.
  init(_ todos: [PlacedTodo]) {
    self.todos = todos
  }

  /// Inserts each todo at its position; a todo whose id is present again is skipped.
  ///
  /// - Complexity: O(n × k) for k restored todos in a list of n.
  func updateState(_ state: inout AppState) {
    for placed in todos.sorted(by: { $0.index < $1.index }) {
      state.todos.insert(placed.todo, at: placed.index)
      state.nextID = max(state.nextID, placed.todo.id &+ 1)
    }
  }

  /// Checks that none of the ids is in use.
  func validate(in state: AppState) throws(TodoError) {
    for placed in todos where state.todos.contains(id: placed.todo.id) {
      throw .idInUse(placed.todo.id)
    }
  }

  /// Restoring is itself how changes are undone; it is not undone in turn.
  func inverse(in state: AppState) -> AnyTodoChange? { nil }

  /// `restore #id, #id`.
  var summary: String {
    "restore " + todos.map { "#\($0.todo.id)" }.joined(separator: ", ")
  }

  func changes(_ state: AppState) -> Bool {
    !todos.isEmpty
  }
}
