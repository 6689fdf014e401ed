/// Gives a todo a due date, or takes it away.
///
/// The payload holds the calendar date, never `today` or `+3d`: those are resolved when the
/// command runs, so a replay under another clock gives the same list.
struct SetDue: TodoFieldChange {
  static let typeName = "SetDue"
  static var field: WritableKeyPath<Todo, CalendarDate?> { \.due }
  static var newValue: WritableKeyPath<SetDue, CalendarDate?> { \.due }

  /// The todo to change.
  var id: Int
  /// The new due date; `nil` for none.
  var due: CalendarDate?

  /// `due #id 2026-03-01` or `due #id none`.
  var summary: String { "due #\(id) " + (due.map(\.description) ?? "none") }
}
