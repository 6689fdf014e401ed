import StateStore

/// One row of the benchmark's todo list, written the way an application would.
struct Todo: Identifiable, Equatable, Codable, Sendable {
  var id: Int
  var title: String
  var done: Bool
}

/// The application state every store workload runs on: a counter and 1,000 tracked todos.
struct AppState: State, Equatable, Codable {
  var counter = 0
  var todos = TrackedArray<Todo>()

  init() {}

  init(todoCount: Int) {
    todos = TrackedArray(makeTodos(count: todoCount))
  }
}

/// The same data as ``AppState`` in plain Swift: what the floors mutate.
struct PlainState {
  var counter = 0
  var todos: [Todo]

  init(todoCount: Int) {
    todos = makeTodos(count: todoCount)
  }
}

/// Builds `count` todos whose titles are longer than 15 bytes, so every title lives on the heap.
func makeTodos(count: Int) -> [Todo] {
  (0..<count).map { Todo(id: $0, title: "Todo number \($0) to be done", done: false) }
}

/// W0: increments the counter.
struct Increment: StateUpdater, Codable {
  func updateState(_ state: inout AppState) {
    state.counter += 1
  }
}

/// W1 and up: toggles the todo with `id`.
struct ToggleTodo: StateUpdater, Codable {
  let id: Int

  func updateState(_ state: inout AppState) {
    state.todos[id: id]?.done.toggle()
  }
}

/// The state S1 and S3 run on: W1's state mounted as a feature, beside a field of the app's own.
struct ShellState: State {
  var visits = 0
  var feature = AppState()

  init() {}

  init(todoCount: Int) {
    feature = AppState(todoCount: todoCount)
  }
}

/// The state S2 runs on: ``ShellState`` one level down, after a field of its own, so that a
/// scope of a scope reaches the todos through two stored properties at non-zero offsets.
struct NestedShellState: State {
  var settings = 0
  var outer = ShellState()

  init() {}

  init(todoCount: Int) {
    outer = ShellState(todoCount: todoCount)
  }
}
