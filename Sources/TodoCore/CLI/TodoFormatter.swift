/// How `list`, `replay` and `history` print: text for people, JSON for scripts.
public enum TodoFormatter {
  /// The todos as text: one line per todo, `<id> [x] <title>`, ids right-aligned.
  ///
  /// - Complexity: O(total length of the titles).
  public static func text<C: Collection<Todo>>(_ todos: C) -> String {
    guard let widest = todos.map(\.id).max() else { return "" }
    let width = String(widest).count
    var output = ""
    output.reserveCapacity(todos.count * 32)
    for todo in todos {
      let id = String(todo.id)
      output += String(repeating: " ", count: width - id.count)
      output += id
      output += todo.done ? " [x] " : " [ ] "
      output += todo.title
      output += "\n"
    }
    return output
  }

  /// The todos as one JSON array on one line: `[{"id":1,"title":"Buy milk","done":false}]`.
  ///
  /// - Complexity: O(total length of the titles).
  public static func json<C: Collection<Todo>>(_ todos: C) -> String {
    var output = "["
    output.reserveCapacity(todos.count * 48)
    var first = true
    for todo in todos {
      if !first { output += "," }
      first = false
      output += "{\"id\":"
      output += String(todo.id)
      output += ",\"title\":\""
      JSONText.appendEscaped(todo.title, to: &output)
      output += todo.done ? "\",\"done\":true}" : "\",\"done\":false}"
    }
    output += "]\n"
    return output
  }

  /// The todos of `state` that pass `filter`, as text or JSON.
  public static func list(_ state: AppState, filter: ListFilter, json: Bool) -> String {
    let todos = filter == .all ? state.todos.elements : state.todos.filter(filter.includes)
    return json ? Self.json(todos) : text(todos)
  }

  /// The history: one line per entry, `<seq>  <summary>`, with the entry an undo reverted.
  ///
  /// - Complexity: O(entries).
  public static func history(_ entries: [JournalEntry]) -> String {
    guard let last = entries.last else { return "" }
    let width = String(last.seq).count
    var output = ""
    for entry in entries {
      let seq = String(entry.seq)
      output += String(repeating: " ", count: width - seq.count) + seq + "  "
      if let undone = entry.undoes {
        output += "undo \(undone): \(entry.change.change.summary)\n"
      } else {
        output += entry.change.change.summary + "\n"
      }
    }
    return output
  }
}
