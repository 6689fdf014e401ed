import Navigation

/// The date screen's result: the due date chosen, `nil` for none (`none` typed).
///
/// A struct rather than an optional date, so that the caller tells "no due date" from "no
/// result" (Esc), which `ShowForResult` gives as `nil`.
struct DueDateChoice: Hashable, Sendable {
  /// The due date chosen; `nil` takes the due date away.
  let due: CalendarDate?
}

/// What the `edit` box is shown with to start from a title that failed to save.
///
/// The `add` box takes that text as a `String`.
struct TitleDraft: Hashable, Sendable {
  /// The todo whose title is edited.
  let todoID: Int
  /// The text the box starts with.
  let text: String
}

/// The terminal UI's sub-flows, each with the type of its result.
extension SubFlow where Result == Bool {
  /// The `confirm` box: `true` when `y` was pressed, `false` for `n`.
  static var confirmDelete: SubFlow { SubFlow("confirm") }
}

extension SubFlow where Result == String {
  /// The `add` box: the title typed, checked by the title editor.
  static var addTitle: SubFlow { SubFlow("add") }
  /// The `edit` box: the new title, checked by the title editor.
  static var editTitle: SubFlow { SubFlow("edit") }
}

extension SubFlow where Result == DueDateChoice {
  /// The date screen: the date chosen, resolved by the detail feature.
  static var dueDate: SubFlow { SubFlow("due") }
}
