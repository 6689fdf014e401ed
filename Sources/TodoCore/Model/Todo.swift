/// One item of the todo list.
public struct Todo: Identifiable, Codable, Sendable, Hashable {
  /// The identifier users type on the command line; never reused within a store.
  public var id: Int
  /// What there is to do: any non-empty text.
  public var title: String
  /// Whether the todo is done.
  public var done: Bool

  /// Creates a todo.
  public init(id: Int, title: String, done: Bool = false) {
    self.id = id
    self.title = title
    self.done = done
  }
}
