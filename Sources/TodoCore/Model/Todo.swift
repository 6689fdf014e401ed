/// One item of the todo list.
struct Todo: Identifiable, Sendable, Hashable {
  /// The identifier users type on the command line; never reused within a store.
  var id: Int
  /// What there is to do: any non-empty text.
  var title: String
  var done: Bool
  /// The tags, each as first written, sorted (``Tags/canonical(_:)``).
  var tags: [String]
  /// The day it is due, if any.
  var due: CalendarDate?
  /// How much it matters, if said.
  var priority: Priority?

  init(
    id: Int, title: String, done: Bool = false, tags: [String] = [], due: CalendarDate? = nil,
    priority: Priority? = nil
  ) {
    self.id = id
    self.title = title
    self.done = done
    self.tags = tags
    self.due = due
    self.priority = priority
  }
}

/// `{"id":1,"title":"…","done":false}`, as every store and log written before tags, due dates
/// and priorities has it; `tags`, `due` and `priority` are written only when a todo has them, so
/// a todo without them is encoded as before, and an old todo decodes with none.
extension Todo: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, title, done, tags, due, priority
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(Int.self, forKey: .id),
      title: try container.decode(String.self, forKey: .title),
      done: try container.decode(Bool.self, forKey: .done),
      tags: Tags.canonical(try container.decodeIfPresent([String].self, forKey: .tags) ?? []),
      due: try container.decodeIfPresent(CalendarDate.self, forKey: .due),
      priority: try container.decodeIfPresent(Priority.self, forKey: .priority))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(done, forKey: .done)
    if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
    try container.encodeIfPresent(due, forKey: .due)
    try container.encodeIfPresent(priority, forKey: .priority)
  }
}
