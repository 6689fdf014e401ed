import ActionLog

/// Appends a new open todo.
struct AddTodo: TodoChange {
  static let typeName = "AddTodo"

  /// The new todo's id; `nil` takes the state's ``AppState/nextID``.
  ///
  /// The app always records the id it chose, so that a replay reproduces the same ids even when
  /// it starts from a different list; hand-written logs may leave it out.
  var id: Int?
  /// The new todo's title.
  var title: String

  /// Creates the change that adds a todo titled `title`, with `id` or the next free id.
  init(id: Int? = nil, title: String) {
    self.id = id
    self.title = title
  }

  /// Appends the todo and moves ``AppState/nextID`` past its id.
  func updateState(_ state: inout AppState) {
    let id = id ?? state.nextID
    guard state.todos.append(Todo(id: id, title: title)) else { return }
    state.nextID = max(state.nextID, id &+ 1)
  }

  /// Checks that the title is not blank and the id is free.
  func validate(in state: AppState) throws(TodoError) {
    guard Title.isValid(title) else { throw .emptyTitle }
    if let id, state.todos.contains(id: id) { throw .idInUse(id) }
  }

  /// Removing the added todo.
  func inverse(in state: AppState) -> AnyTodoChange? {
    .removeTodo(RemoveTodo(id: id ?? state.nextID))
  }

  /// `add #id "title"`.
  var summary: String {
    "add \(id.map { "#\($0) " } ?? "")\(JSONText.quoted(title))"
  }

  func changes(_ state: AppState) -> Bool {
    true
  }

  var erased: AnyTodoChange { .addTodo(self) }
}
