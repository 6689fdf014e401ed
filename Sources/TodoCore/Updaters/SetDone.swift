/// Marks a todo done, or open again.
struct SetDone: TodoFieldChange {
  static let typeName = "SetDone"
  static var field: WritableKeyPath<Todo, Bool> { \.done }
  static var newValue: WritableKeyPath<SetDone, Bool> { \.done }

  /// The todo to change.
  var id: Int
  /// `true` for done, `false` for open.
  var done: Bool

  /// `done #id` or `reopen #id`.
  var summary: String { "\(done ? "done" : "reopen") #\(id)" }
}
