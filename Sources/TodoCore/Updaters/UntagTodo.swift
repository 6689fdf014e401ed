/// Takes tags off a todo, matching them without regard to case.
struct UntagTodo: TodoChange {
  static let typeName = "UntagTodo"

  /// The todo to change.
  var id: Int
  /// The tags to remove.
  var tags: [String]

  /// Creates the change that removes `tags` from todo `id`.
  init(id: Int, tags: [String]) {
    self.id = id
    self.tags = tags
  }

  /// Removes the tags; does nothing if the todo is gone.
  ///
  /// - Complexity: O(tags × removed).
  func updateState(_ state: inout AppState) {
    guard let todo = state.todos[id: id] else { return }
    state.todos[id: id]?.tags = Tags.removing(tags, from: todo.tags)
  }

  /// Checks that there is a tag, that each is one word, and that the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    guard !tags.isEmpty else { throw .noTags }
    try Tags.validate(tags)
    _ = try state.existingTodo(id)
  }

  /// Adding back the removed tags as the todo had written them.
  func inverse(in state: AppState) -> AnyTodoChange? {
    guard let todo = state.todos[id: id] else { return nil }
    let removed = todo.tags.filter { Tags.contains(tags, $0) }
    return TagTodo(id: id, tags: removed).erased
  }

  /// `untag #id a, b`.
  var summary: String { "untag #\(id) " + tags.joined(separator: ", ") }

  /// Whether the todo has one of the tags.
  func changes(_ state: AppState) -> Bool {
    guard let todo = state.todos[id: id] else { return false }
    return tags.contains { Tags.contains(todo.tags, $0) }
  }
}
