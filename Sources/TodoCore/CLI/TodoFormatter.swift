import ActionLog
import TerminalKit

/// How `list`, `replay` and `history` print: text for people, JSON for scripts.
enum TodoFormatter {
  /// The todos as text: one line per todo, `<id> [x] <title>`, ids right-aligned, followed by
  /// what the todo has of `!high`, `due:2026-03-01` (with ` (overdue)` when it is before
  /// `today`) and `#tag`s, two spaces apart.
  ///
  /// With `forTerminal`, control characters in titles and tags are shown escaped (see
  /// ``TerminalSafeText``), so that a title cannot drive the terminal it is listed on.
  ///
  /// - Complexity: O(total length of the titles).
  static func text<C: Collection<Todo>>(
    _ todos: C, today: CalendarDate? = nil, forTerminal: Bool = false
  ) -> String {
    // The widest id by its printed length: a negative id is longer than its magnitude suggests.
    let width = todos.reduce(0) { max($0, DecimalText.length($1.id)) }
    // Built as bytes and made a string once: a `String` append per field cost a listing of
    // 10,000 todos more than its snapshot took to read.
    var output: [UInt8] = []
    output.reserveCapacity(todos.count * 32)
    for todo in todos {
      DecimalText.append(todo.id, width: width, padding: UInt8(ascii: " "), to: &output)
      output.append(contentsOf: todo.done ? " [x] ".utf8 : " [ ] ".utf8)
      appendText(todo.title, forTerminal: forTerminal, to: &output)
      if let priority = todo.priority {
        output.append(contentsOf: "  !".utf8)
        output.append(contentsOf: priority.rawValue.utf8)
      }
      if let due = todo.due {
        output.append(contentsOf: "  due:".utf8)
        due.appendDescription(to: &output)
        if let today, due < today { output.append(contentsOf: " (overdue)".utf8) }
      }
      for (index, tag) in todo.tags.enumerated() {
        output.append(contentsOf: index == 0 ? "  #".utf8 : " #".utf8)
        appendText(tag, forTerminal: forTerminal, to: &output)
      }
      output.append(UInt8(ascii: "\n"))
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends `text`'s UTF-8 bytes, with control characters escaped when `forTerminal`.
  private static func appendText(_ text: String, forTerminal: Bool, to output: inout [UInt8]) {
    if forTerminal {
      output.append(contentsOf: TerminalSafeText.escaped(text).utf8)
    } else {
      output.append(contentsOf: text.utf8)
    }
  }

  /// The todos as one JSON array on one line:
  /// `[{"id":1,"title":"Buy milk","done":false,"tags":["home"],"due":"2026-03-01","priority":null}]`.
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
      output += todo.done ? "\",\"done\":true" : "\",\"done\":false"
      output += ",\"tags\":["
      for (index, tag) in todo.tags.enumerated() {
        output += index == 0 ? "\"" : ",\""
        JSONText.appendEscaped(tag, to: &output)
        output += "\""
      }
      output += "],\"due\":"
      output += todo.due.map { "\"\($0)\"" } ?? "null"
      output += ",\"priority\":"
      output += todo.priority.map { "\"\($0.rawValue)\"" } ?? "null"
      output += "}"
    }
    output += "]\n"
    return output
  }

  /// The todos of `state` that `selection` picks, in its order, as text or JSON.
  ///
  /// `forTerminal` escapes control characters in the text form; JSON is always exact. `today`
  /// marks the overdue todos in the text form.
  ///
  /// - Complexity: O(n log n) for n todos.
  static func list(
    _ state: AppState, selection: TodoSelection, json: Bool, today: CalendarDate? = nil,
    forTerminal: Bool = false
  ) -> String {
    if selection.selectsEverything {
      return json
        ? Self.json(state.todos.elements)
        : text(state.todos.elements, today: today, forTerminal: forTerminal)
    }
    let todos = selection.apply(to: state.todos.elements)
    return json ? Self.json(todos) : text(todos, today: today, forTerminal: forTerminal)
  }

  /// The history: one line per entry, `<seq>  <summary>`, with the entry an undo reverted.
  ///
  /// - Complexity: O(entries).
  ///
  /// With `forTerminal`, control characters that the summaries' quoting leaves (DEL, C1
  /// controls) are shown escaped.
  static func history<C: Collection<JournalEntry>>(_ entries: C, forTerminal: Bool = false)
    -> String
  {
    let width = entries.reduce(0) { max($0, DecimalText.length($1.seq)) }
    var output = ""
    for entry in entries {
      let seq = String(entry.seq)
      output += String(repeating: " ", count: max(0, width - seq.utf8.count)) + seq + "  "
      let change = description(of: entry)
      output += forTerminal ? TerminalSafeText.escaped(change) : change
      output += "\n"
    }
    return output
  }

  /// What an entry did, as `history` shows it: `undo 3: done #2` for an undo.
  static func description(of entry: JournalEntry) -> String {
    (entry.undoes.map { "undo \($0): " } ?? "") + entry.change.change.summary
  }

  /// The history as one JSON array on one line:
  /// `[{"seq":1,"change":"add #1 \"Buy milk\"","time":"2026-03-01T09:30:00Z"}]`, `time` being
  /// `null` for entries written before todo-cli recorded times.
  ///
  /// - Complexity: O(entries).
  static func historyJSON<C: Collection<JournalEntry>>(_ entries: C) -> String {
    var output = "["
    for (index, entry) in entries.enumerated() {
      if index > 0 { output += "," }
      output += "{\"seq\":\(entry.seq),\"change\":\""
      JSONText.appendEscaped(description(of: entry), to: &output)
      output += "\",\"time\":"
      output += entry.time.map { "\"" + TodoClock.iso8601($0) + "\"" } ?? "null"
      output += "}"
    }
    return output + "]\n"
  }
}
