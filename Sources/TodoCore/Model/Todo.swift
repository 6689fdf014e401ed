/// One item of the todo list.
struct Todo: Identifiable, Codable, Sendable, Hashable {
  /// The identifier users type on the command line; never reused within a store.
  var id: Int
  /// What there is to do: any non-empty text.
  var title: String
  var done: Bool

  init(id: Int, title: String, done: Bool = false) {
    self.id = id
    self.title = title
    self.done = done
  }
}
