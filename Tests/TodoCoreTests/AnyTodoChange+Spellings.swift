@testable import TodoCore

/// The spellings the storage tests were written with when `AnyTodoChange` was an enum with a case
/// per change (`.addTodo(AddTodo(…))`), kept here so that those tests run unchanged against the
/// type-erased wrapper. The app itself writes `change.erased`; a new change needs nothing here.
extension AnyTodoChange {
  static func addTodo(_ change: AddTodo) -> Self { change.erased }
  static func setDone(_ change: SetDone) -> Self { change.erased }
  static func editTitle(_ change: EditTitle) -> Self { change.erased }
  static func removeTodo(_ change: RemoveTodo) -> Self { change.erased }
  static func clearDone(_ change: ClearDone) -> Self { change.erased }
  static func setDue(_ change: SetDue) -> Self { change.erased }
}
