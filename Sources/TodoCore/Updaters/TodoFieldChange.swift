/// A change that sets one field of one todo, such as ``SetDone`` or ``EditTitle``: everything
/// but its name, its field and its summary is written here once.
///
/// A conforming type is a struct with two stored properties, `id` and the new value, whose
/// names are the keys of its payload in the journal (`{"id":3,"done":true}`), so they never
/// change:
///
/// ```swift
/// struct SetDone: TodoFieldChange {
///   static let typeName = "SetDone"
///   static var field: WritableKeyPath<Todo, Bool> { \.done }
///   static var newValue: WritableKeyPath<SetDone, Bool> { \.done }
///   var id: Int
///   var done: Bool
///   var summary: String { "\(done ? "done" : "reopen") #\(id)" }
/// }
/// ```
///
/// The change sets the field and does nothing if the todo is gone; it applies only to a todo
/// that exists (a type with more to check implements ``TodoChange/validate(in:)`` itself);
/// it changes something when the field holds another value; and its inverse is the same change
/// with the field's value before it.
protocol TodoFieldChange: TodoChange {
  /// The type of the field.
  associatedtype Value: Hashable

  /// The field of the todo this change sets.
  static var field: WritableKeyPath<Todo, Value> { get }
  /// This change's stored property that holds the field's new value.
  static var newValue: WritableKeyPath<Self, Value> { get }

  /// The todo to change.
  var id: Int { get }
}

extension TodoFieldChange {
  /// Sets the field; does nothing if the todo is gone.
  func updateState(_ state: inout AppState) {
    state.todos[id: id]?[keyPath: Self.field] = self[keyPath: Self.newValue]
  }

  /// Checks that the todo exists.
  func validate(in state: AppState) throws(TodoError) {
    _ = try state.existingTodo(id)
  }

  /// Whether the todo exists and its field holds another value.
  func changes(_ state: AppState) -> Bool {
    state.todos[id: id].map { $0[keyPath: Self.field] != self[keyPath: Self.newValue] } ?? false
  }

  /// The same change with the field's value in `state`, or `nil` if the todo is not there.
  func inverse(in state: AppState) -> AnyTodoChange? {
    guard let todo = state.todos[id: id] else { return nil }
    var inverse = self
    inverse[keyPath: Self.newValue] = todo[keyPath: Self.field]
    return inverse.erased
  }
}
