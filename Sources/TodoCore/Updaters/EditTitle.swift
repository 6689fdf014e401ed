import ActionLog

/// Gives a todo a new title.
struct EditTitle: TodoChange {
  static let typeName = "EditTitle"

  /// The todo to change.
  var id: Int
  /// The new title.
  var title: String

  /// Creates the change that renames todo `id` to `title`.
  init(id: Int, title: String) {
    self.id = id
    self.title = title
  }

  /// Sets the title; does nothing if the todo is gone.
  func updateState(_ state: inout AppState) {
    state.todos[id: id]?.title = title
  }

  /// Checks that the title is not blank and the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    guard Title.isValid(title) else { throw .emptyTitle }
    _ = try state.existingTodo(id)
  }

  /// Setting the old title back.
  func inverse(in state: AppState) -> AnyTodoChange? {
    guard let todo = state.todos[id: id] else { return nil }
    return .editTitle(EditTitle(id: id, title: todo.title))
  }

  /// `edit #id "title"`.
  var summary: String { "edit #\(id) \(JSONText.quoted(title))" }

  func changes(_ state: AppState) -> Bool {
    state.todos[id: id].map { $0.title != title } ?? false
  }

  var erased: AnyTodoChange { .editTitle(self) }
}
