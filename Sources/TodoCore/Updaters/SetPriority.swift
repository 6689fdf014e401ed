/// Gives a todo a priority, or takes it away.
struct SetPriority: TodoFieldChange {
  static let typeName = "SetPriority"
  static var field: WritableKeyPath<Todo, Priority?> { \.priority }
  static var newValue: WritableKeyPath<SetPriority, Priority?> { \.priority }

  /// The todo to change.
  var id: Int
  /// The new priority; `nil` for none.
  var priority: Priority?

  /// `priority #id high` or `priority #id none`.
  var summary: String { "priority #\(id) " + (priority?.rawValue ?? "none") }
}
