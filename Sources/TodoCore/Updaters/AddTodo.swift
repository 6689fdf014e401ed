import ActionLog

/// Appends a new open todo.
public struct AddTodo: TodoChange {
  /// The name recorded in the action log.
  public static let typeName = "AddTodo"

  /// The new todo's id; `nil` takes the state's ``AppState/nextID``.
  ///
  /// The app always records the id it chose, so that a replay reproduces the same ids even when
  /// it starts from a different list; hand-written logs may leave it out.
  public var id: Int?
  /// The new todo's title.
  public var title: String

  /// Creates the change that adds a todo titled `title`, with `id` or the next free id.
  public init(id: Int? = nil, title: String) {
    self.id = id
    self.title = title
  }

  /// Appends the todo and moves ``AppState/nextID`` past its id.
  public func updateState(_ state: inout AppState) {
    let id = id ?? state.nextID
    guard state.todos.append(Todo(id: id, title: title)) else { return }
    state.nextID = max(state.nextID, id &+ 1)
  }

  /// Checks that the title is not blank and the id is free.
  public func validate(in state: AppState) throws(TodoError) {
    guard Title.isValid(title) else { throw .emptyTitle }
    if let id, state.todos.contains(id: id) { throw .idInUse(id) }
  }

  /// Removing the added todo.
  public func inverse(in state: AppState) -> AnyTodoChange? {
    .removeTodo(RemoveTodo(id: id ?? state.nextID))
  }

  /// `add #id "title"`.
  public var summary: String {
    "add \(id.map { "#\($0) " } ?? "")\(JSONText.quoted(title))"
  }

  /// Whether the change would alter `state`.
  public func changes(_ state: AppState) -> Bool {
    true
  }

  /// This change, type-erased.
  public var erased: AnyTodoChange { .addTodo(self) }
}
