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
  /// Its tags; an entry written before tags has none.
  var tags: [String]
  /// Its due date, if any.
  var due: CalendarDate?
  /// Its priority, if any.
  var priority: Priority?

  /// Creates the change that adds a todo titled `title`, with `id` or the next free id, and
  /// with `tags`, `due` and `priority`.
  init(
    id: Int? = nil, title: String, tags: [String] = [], due: CalendarDate? = nil,
    priority: Priority? = nil
  ) {
    self.id = id
    self.title = title
    self.tags = Tags.adding(tags, to: [])
    self.due = due
    self.priority = priority
  }

  /// Appends the todo and moves ``AppState/nextID`` past its id.
  func updateState(_ state: inout AppState) {
    let id = id ?? state.nextID
    let todo = Todo(
      id: id, title: title, tags: Tags.adding(tags, to: []), due: due, priority: priority)
    guard state.todos.append(todo) else { return }
    state.nextID = max(state.nextID, id &+ 1)
  }

  /// Checks that the title is not blank and the id is free.
  func validate(in state: AppState) throws(TodoError) {
    guard Title.isValid(title) else { throw .emptyTitle }
    try Tags.validate(tags)
    if let id, state.todos.contains(id: id) { throw .idInUse(id) }
  }

  /// Removing the added todo.
  func inverse(in state: AppState) -> AnyTodoChange? {
    RemoveTodo(id: id ?? state.nextID).erased
  }

  /// `add #id "title"`, followed by what else the todo was given:
  /// `add #3 "Buy milk" tags errands, home due 2026-03-01 priority high`.
  var summary: String {
    var text = "add \(id.map { "#\($0) " } ?? "")\(JSONText.quoted(title))"
    if !tags.isEmpty { text += " tags " + tags.joined(separator: ", ") }
    if let due { text += " due \(due)" }
    if let priority { text += " priority \(priority.rawValue)" }
    return text
  }

  func changes(_ state: AppState) -> Bool {
    true
  }
}

/// `{"id":3,"title":"…"}` as before tags, due dates and priorities, which are written only when
/// given: an entry written by an older todo-cli decodes with none of them.
extension AddTodo {
  private enum CodingKeys: String, CodingKey {
    case id, title, tags, due, priority
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decodeIfPresent(Int.self, forKey: .id),
      title: try container.decode(String.self, forKey: .title),
      tags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [],
      due: try container.decodeIfPresent(CalendarDate.self, forKey: .due),
      priority: try container.decodeIfPresent(Priority.self, forKey: .priority))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(id, forKey: .id)
    try container.encode(title, forKey: .title)
    if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
    try container.encodeIfPresent(due, forKey: .due)
    try container.encodeIfPresent(priority, forKey: .priority)
  }
}
