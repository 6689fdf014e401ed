/// Gives a todo tags it does not have yet; a tag it has, in any case, is left as first written.
struct TagTodo: TodoChange {
  static let typeName = "TagTodo"

  /// The todo to change.
  var id: Int
  /// The tags to add.
  var tags: [String]

  /// Creates the change that adds `tags` to todo `id`.
  init(id: Int, tags: [String]) {
    self.id = id
    self.tags = tags
  }

  /// Adds the tags; does nothing if the todo is gone.
  ///
  /// - Complexity: O((tags + added) log (tags + added)).
  func updateState(_ state: inout AppState) {
    guard let todo = state.todos[id: id] else { return }
    state.todos[id: id]?.tags = Tags.adding(tags, to: todo.tags)
  }

  /// Checks that there is a tag, that each is one word, and that the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    guard !tags.isEmpty else { throw .noTags }
    try Tags.validate(tags)
    _ = try state.existingTodo(id)
  }

  /// Removing the tags the todo did not have.
  func inverse(in state: AppState) -> AnyTodoChange? {
    guard let todo = state.todos[id: id] else { return nil }
    let added = Tags.removing(todo.tags, from: tags)
    return UntagTodo(id: id, tags: added).erased
  }

  /// `tag #id a, b`.
  var summary: String { "tag #\(id) " + tags.joined(separator: ", ") }

  /// Whether the todo lacks one of the tags.
  func changes(_ state: AppState) -> Bool {
    guard let todo = state.todos[id: id] else { return false }
    return tags.contains { !Tags.contains(todo.tags, $0) }
  }
}
