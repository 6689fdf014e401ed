import StateStore

/// A small state used across the core tests.
struct CounterState: State, Equatable {
  var value = 0
  var label = ""
  var log: [Int] = []
}

struct Increment: StateUpdater {
  var by = 1
  func updateState(_ state: inout CounterState) { state.value += by }
}

struct SetLabel: StateUpdater {
  let label: String
  func updateState(_ state: inout CounterState) { state.label = label }
}

struct Append: StateUpdater {
  let number: Int
  func updateState(_ state: inout CounterState) { state.log.append(number) }
}

/// A dispatchable that is neither an updater nor executable.
struct Unrunnable: Dispatchable {}

/// An object whose release the lifetime tests observe through weak references.
final class Tracked: Sendable {}

struct Todo: Identifiable, Equatable, Sendable, Codable {
  var id: Int
  var title: String
  var done = false
}

struct ListState: State, Equatable {
  var todos = TrackedArray<Todo>()
  var filter = "all"
}

struct Toggle: StateUpdater {
  let id: Int
  func updateState(_ state: inout ListState) { state.todos[id: id]?.done.toggle() }
}

struct Rename: StateUpdater {
  let id: Int
  let title: String
  func updateState(_ state: inout ListState) { state.todos[id: id]?.title = title }
}

struct AddTodo: StateUpdater {
  let todo: Todo
  func updateState(_ state: inout ListState) { state.todos.append(todo) }
}

struct RemoveTodo: StateUpdater {
  let id: Int
  func updateState(_ state: inout ListState) { state.todos.remove(id: id) }
}

struct ToggleAll: StateUpdater {
  func updateState(_ state: inout ListState) {
    for todo in state.todos { state.todos[id: todo.id]?.done.toggle() }
  }
}

struct ReplaceAll: StateUpdater {
  let todos: [Todo]
  func updateState(_ state: inout ListState) { state.todos = TrackedArray(todos) }
}

struct SetFilter: StateUpdater {
  let filter: String
  func updateState(_ state: inout ListState) { state.filter = filter }
}

func makeTodos(_ count: Int) -> TrackedArray<Todo> {
  TrackedArray((0..<count).map { Todo(id: $0, title: "todo number \($0)") })
}
