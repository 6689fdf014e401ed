import ActionLog
import Foundation
import StateStore

struct Todo: Identifiable, Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var done = false
}

enum Filter: String, Codable, Equatable, Sendable {
  case all, open, done
}

struct TodoState: State, Codable, Equatable {
  var todos = TrackedArray<Todo>()
  var nextID = 1
  var filter = Filter.all
  var labels: Set<String> = []
  var counts: [String: Int] = [:]
}

struct AddTodo: StateUpdater, Codable {
  var title: String
  func updateState(_ state: inout TodoState) {
    state.todos.append(Todo(id: state.nextID, title: title))
    state.nextID += 1
  }
}

struct ToggleTodo: StateUpdater, Codable {
  var id: Int
  func updateState(_ state: inout TodoState) {
    state.todos[id: id]?.done.toggle()
  }
}

/// `ToggleTodo` as a later version of the app might have broken it: it also renames the todo.
struct ToggleTodoChanged: StateUpdater, Codable {
  var id: Int
  func updateState(_ state: inout TodoState) {
    state.todos[id: id]?.done.toggle()
    state.todos[id: id]?.title += "!"
  }
}

struct RemoveTodo: StateUpdater, Codable {
  var id: Int
  func updateState(_ state: inout TodoState) {
    state.todos.remove(id: id)
  }
}

struct AddLabel: StateUpdater, Codable {
  var label: String
  func updateState(_ state: inout TodoState) {
    state.labels.insert(label)
    state.counts[label, default: 0] += 1
  }
}

struct SetFilter: StateUpdater, Codable {
  var filter: Filter
  func updateState(_ state: inout TodoState) {
    state.filter = filter
  }
}

/// An updater that is deliberately not registered.
struct Unregistered: StateUpdater, Codable {
  func updateState(_ state: inout TodoState) {
    state.nextID += 100
  }
}

/// What a screen listing open todos shows.
struct OpenTodos: ViewModelWithState {
  var titles: [String]
  init(titles: [String]) { self.titles = titles }
  init?(state: TodoState) {
    titles = state.todos.elements.filter { !$0.done }.map(\.title)
  }
}

extension ActionLogRegistry<TodoState> {
  /// Every updater the tests record, under its default name.
  static func todos() -> ActionLogRegistry<TodoState> {
    ActionLogRegistry<TodoState>()
      .register(AddTodo.self)
      .register(ToggleTodo.self)
      .register(RemoveTodo.self)
      .register(AddLabel.self)
      .register(SetFilter.self)
  }
}

/// A scratch directory removed when the value is released.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("actionlog-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// The updaters of a small session that touches every kind of field.
func sampleSession() -> [any StateUpdater<TodoState>] {
  [
    AddTodo(title: "milk"), AddTodo(title: "eggs"), ToggleTodo(id: 1), AddLabel(label: "home"),
    AddLabel(label: "work"), SetFilter(filter: .open), AddTodo(title: "bread"), RemoveTodo(id: 2),
    AddLabel(label: "home"), ToggleTodo(id: 3),
  ]
}

/// Applies `updaters` directly, the way the state would be without any store or log.
func applied(_ updaters: [any StateUpdater<TodoState>], to state: TodoState = TodoState())
  -> TodoState
{
  var state = state
  for updater in updaters { updater.updateState(&state) }
  return state
}

/// Records `updaters` dispatched to a fresh store into memory and returns the log.
@MainActor
func recordedLog(
  _ updaters: [any StateUpdater<TodoState>], initialState: TodoState = TodoState(),
  options: ActionRecorder.Options = .init()
) throws -> Data {
  let store = Store<TodoState, Void>(initialState: initialState)
  let recorder = try ActionRecorder(
    store: store, registry: .todos(), destination: .memory, options: options)
  for updater in updaters { store.dispatch(updater) }
  return recorder.recordedData
}

/// The log's lines as text.
func lines(of data: Data) -> [String] {
  String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}
