import StateStore

/// What the detail screen's feature knows: which todo is open, and how its last date entry went.
///
/// The feature knows nothing of todos or calendars: it holds ids and texts, owns the rules of the
/// detail's keys (which priority `p` moves to, what a typed date means, through its
/// dependencies), and hands the change to make back to the app, which saves it.
package struct TodoDetailState: State, Hashable {
  /// The id of the todo the detail shows, or `nil` when no detail is open.
  package var todoID: Int?
  /// The last date the date screen accepted, as `YYYY-MM-DD`, or `nil` for none.
  package var acceptedDate: String?
  /// Why the last date typed was refused, or `nil`.
  package var refusal: String?

  /// No detail open, nothing typed.
  package init() {}

  package init(todoID: Int?, acceptedDate: String? = nil, refusal: String? = nil) {
    self.todoID = todoID
    self.acceptedDate = acceptedDate
    self.refusal = refusal
  }
}

/// A todo's priority as the detail feature names it.
package enum DetailPriority: String, CaseIterable, Codable, Hashable, Sendable {
  case high, medium, low

  /// What `p` moves to from `priority`: none, high, medium, low, then none again.
  package static func after(_ priority: DetailPriority?) -> DetailPriority? {
    switch priority {
    case nil: .high
    case .high: .medium
    case .medium: .low
    case .low: nil
    }
  }
}
