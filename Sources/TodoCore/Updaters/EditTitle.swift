import ActionLog

/// Gives a todo a new title.
struct EditTitle: TodoFieldChange {
  static let typeName = "EditTitle"
  static var field: WritableKeyPath<Todo, String> { \.title }
  static var newValue: WritableKeyPath<EditTitle, String> { \.title }

  /// The todo to change.
  var id: Int
  /// The new title.
  var title: String

  /// Checks that the title is not blank and the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    guard Title.isValid(title) else { throw .emptyTitle }
    _ = try state.existingTodo(id)
  }

  /// `edit #id "title"`.
  var summary: String { "edit #\(id) \(JSONText.quoted(title))" }
}
