import ActionLog

/// How `list`, `replay` and `history` print: text for people, JSON for scripts.
enum TodoFormatter {
  /// The todos as text: one line per todo, `<id> [x] <title>`, ids right-aligned.
  ///
  /// With `forTerminal`, control characters in titles are shown escaped (see
  /// ``TerminalSafeText``), so that a title cannot drive the terminal it is listed on.
  ///
  /// - Complexity: O(total length of the titles).
  static func text<C: Collection<Todo>>(_ todos: C, forTerminal: Bool = false) -> String {
    // The widest id by its printed length: a negative id is longer than its magnitude suggests.
    let width = todos.reduce(0) { max($0, decimalLength($1.id)) }
    var output = ""
    output.reserveCapacity(todos.count * 32)
    for todo in todos {
      let id = String(todo.id)
      output += String(repeating: " ", count: max(0, width - id.utf8.count))
      output += id
      output += todo.done ? " [x] " : " [ ] "
      output += forTerminal ? TerminalSafeText.escaped(todo.title) : todo.title
      output += "\n"
    }
    return output
  }

  /// The number of characters `String(value)` has.
  private static func decimalLength(_ value: Int) -> Int {
    var length = value < 0 ? 2 : 1
    var rest = value / 10
    while rest != 0 {
      length += 1
      rest /= 10
    }
    return length
  }

  /// The todos as one JSON array on one line: `[{"id":1,"title":"Buy milk","done":false}]`.
  ///
  /// - Complexity: O(total length of the titles).
  static func json<C: Collection<Todo>>(_ todos: C) -> String {
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
  ///
  /// `forTerminal` escapes control characters in the text form; JSON is always exact.
  static func list(
    _ state: AppState, filter: ListFilter, json: Bool, forTerminal: Bool = false
  ) -> String {
    let todos = filter == .all ? state.todos.elements : state.todos.filter(filter.includes)
    return json ? Self.json(todos) : text(todos, forTerminal: forTerminal)
  }

  /// The history: one line per entry, `<seq>  <summary>`, with the entry an undo reverted.
  ///
  /// - Complexity: O(entries).
  ///
  /// With `forTerminal`, control characters that the summaries' quoting leaves (DEL, C1
  /// controls) are shown escaped.
  static func history(_ entries: [JournalEntry], forTerminal: Bool = false) -> String {
    let width = entries.reduce(0) { max($0, decimalLength($1.seq)) }
    var output = ""
    for entry in entries {
      let seq = String(entry.seq)
      output += String(repeating: " ", count: max(0, width - seq.utf8.count)) + seq + "  "
      let summary = entry.change.change.summary
      if let undone = entry.undoes { output += "undo \(undone): " }
      output += forTerminal ? TerminalSafeText.escaped(summary) : summary
      output += "\n"
    }
    return output
  }
}
