import Testing

@testable import StateStore

/// A state whose list sits at every kind of key path a row subscription can be given: a
/// stored property nested in a struct (read at an offset), a computed property and a property
/// of a class instance (both applied as key paths).
struct DeepListState: State {
  struct Page: Sendable {
    var title = "page"
    var todos = TrackedArray<Todo>()
  }

  final class Archive: Sendable {
    let todos: TrackedArray<Todo>
    init(_ todos: TrackedArray<Todo>) { self.todos = todos }
  }

  var counter = 0
  var page = Page()
  var archive = Archive(TrackedArray())

  /// The page's list, through a getter.
  var visibleTodos: TrackedArray<Todo> { page.todos }

  init() {}

  init(todos: TrackedArray<Todo>) {
    page.todos = todos
    archive = Archive(todos)
  }
}

struct ToggleDeep: StateUpdater {
  let id: Int
  func updateState(_ state: inout DeepListState) {
    state.page.todos[id: id]?.done.toggle()
    var archived = state.archive.todos
    archived[id: id]?.done.toggle()
    state.archive = DeepListState.Archive(archived)
  }
}

@MainActor
@Suite("Row subscriptions read their list at any key path")
struct StoredProjectionTests {
  @Test("a nested stored list is read at its offset; computed and class paths are applied")
  func projectionKinds() {
    let state = DeepListState(todos: makeTodos(5))
    let nested = _StoredProjection(\DeepListState.page.todos)
    let computed = _StoredProjection(\DeepListState.visibleTodos)
    let archived = _StoredProjection(\DeepListState.archive.todos)
    #expect(nested._offset != nil)
    #expect(computed._offset == nil)
    #expect(archived._offset == nil)
    for projection in [nested, computed, archived] {
      #expect(projection.value(in: state).elements == state.page.todos.elements)
      var copy = state
      let atOffset = withUnsafePointer(to: &copy, projection.value(at:))
      // A key path without an offset is never applied through the pointer: its getter may be
      // the application's code, which must not run while the state is being read in place.
      #expect(atOffset?.ids == (projection._offset == nil ? nil : [0, 1, 2, 3, 4]))
    }
  }

  @Test("row subscribers hear the same changes through every kind of key path")
  func subscribersAtEveryPath() {
    let store = Store<DeepListState, Void>(initialState: DeepListState(todos: makeTodos(5)))
    var nested: [Todo?] = []
    var computed: [Todo?] = []
    var archived: [Todo?] = []
    let tokens = [
      store.subscribe(to: \.page.todos, id: 2) { nested.append($0) },
      store.subscribe(to: \.visibleTodos, id: 2) { computed.append($0) },
      store.subscribe(to: \.archive.todos, id: 2) { archived.append($0) },
    ]
    store.dispatch(ToggleDeep(id: 1))
    store.dispatch(ToggleDeep(id: 2))
    let expected: [Todo?] = [
      Todo(id: 2, title: "todo number 2"), Todo(id: 2, title: "todo number 2", done: true),
    ]
    #expect(nested == expected)
    #expect(computed == expected)
    #expect(archived == expected)
    withExtendedLifetime(tokens) {}
  }
}
