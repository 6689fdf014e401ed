import ActionLog

/// Follows the encoded state through a log: checkpoints give it whole, diffs change it.
///
/// After an entry without a diff the state is unknown until the next checkpoint.
package struct StateTracker: Sendable {
  /// The state after the last record applied, or `nil` when the log does not tell.
  package private(set) var state: JSONValue?

  /// Creates a tracker that knows no state yet.
  package init() {}

  /// Creates a tracker that resumes after a record whose state was `state` (`nil`: unknown).
  package init(state: JSONValue?) {
    self.state = state
  }

  /// Moves the state past `record`.
  ///
  /// - Throws: ``LogDamage`` when an entry's diff does not fit the state before it.
  /// - Complexity: O(size of the diff), or O(size of the state) when another copy of the state
  ///   is still held.
  package mutating func apply(_ record: LogRecord) throws(LogDamage) {
    switch record {
    case .checkpoint(_, _, let checkpointState):
      state = checkpointState
    case .entry(let entry):
      guard let diff = entry.diff, var current = state else {
        state = nil
        return
      }
      // Released first, so that the diff changes a uniquely held value in place.
      state = nil
      do {
        try JSONChange.apply(diff, to: &current)
      } catch {
        throw LogDamage(
          line: entry.line, reason: "the diff does not fit the state before it: \(error)")
      }
      state = current
    }
  }
}

/// The ways a path in the state may be written on the command line.
package enum StatePath {
  /// The JSON Pointer tokens of `text`: a pointer (`/todos/0/title`) or a dotted path
  /// (`todos[0].title`, `todos.0.title`); `nil` when it is neither.
  ///
  /// - Complexity: O(length of `text`).
  package static func tokens(_ text: String) -> [String]? {
    if text.isEmpty || text.hasPrefix("/") { return JSONPointer.tokens(text) }
    var tokens: [String] = []
    var current = ""
    var index = text.startIndex
    var afterBracket = false
    while index < text.endIndex {
      let character = text[index]
      switch character {
      case ".":
        if !afterBracket {
          guard !current.isEmpty else { return nil }
          tokens.append(current)
        }
        current = ""
        afterBracket = false
      case "[":
        if !afterBracket {
          guard !current.isEmpty || tokens.isEmpty == false || index == text.startIndex else {
            return nil
          }
          if !current.isEmpty { tokens.append(current) }
        }
        guard let close = text[index...].firstIndex(of: "]") else { return nil }
        let inside = String(text[text.index(after: index)..<close])
        guard JSONPointer.index(inside) != nil else { return nil }
        tokens.append(inside)
        current = ""
        index = close
        afterBracket = true
      default:
        guard !afterBracket else { return nil }
        current.append(character)
      }
      index = text.index(after: index)
    }
    if !afterBracket {
      guard !current.isEmpty else { return nil }
      tokens.append(current)
    }
    return tokens
  }
}
