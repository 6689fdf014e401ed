/// Everything the todo app knows: the todos, in the order they were added, and the next id.
struct AppState: State, Codable, Hashable {
  /// The todos, in order.
  var todos: TrackedArray<Todo>
  /// The id the next added todo gets; ids are never reused, even after a todo is removed.
  var nextID: Int

  /// Creates an empty list whose first todo gets id 1.
  init() {
    todos = TrackedArray()
    nextID = 1
  }

  /// Creates a state holding `todos`, continuing ids from `nextID`.
  init(todos: TrackedArray<Todo>, nextID: Int) {
    self.todos = todos
    self.nextID = nextID
  }
}
