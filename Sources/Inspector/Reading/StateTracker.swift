import ActionLog

/// Follows the encoded state through a log: checkpoints give it whole, diffs change it.
///
/// After an entry without a diff the state is unknown until the next checkpoint.
package struct StateTracker: Sendable {
  /// The state after the last record applied, or `nil` when the log does not tell.
  package private(set) var state: JSONValue?
  /// Where the elements the diffs name by identifier were last found.
  private var hints = PositionHints()

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
    case .effect:
      return
    case .entry(let entry):
      guard let diff = entry.diff, var current = state else {
        state = nil
        return
      }
      // Released first, so that the diff changes a uniquely held value in place.
      state = nil
      do {
        try JSONChange.apply(diff, to: &current, hints: &hints)
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
  /// The steps of `text`: a path as diffs write it (`/todos/0/title`, `/todos[id=3]/done`), or
  /// a dotted path (`todos[0].title`, `todos.0.title`, `todos[id=3].done`,
  /// `todos[id="milk"].done`); `nil` when it is neither.
  ///
  /// An element named by its identifier is found by it in every state, wherever it stands:
  /// its history follows it across sorts and removals.
  ///
  /// - Complexity: O(length of `text`).
  package static func steps(_ text: String) -> [PathStep]? {
    if text.isEmpty || text.hasPrefix("/") { return JSONPath.steps(text) }
    var steps: [PathStep] = []
    var current = ""
    var index = text.startIndex
    var afterBracket = false
    while index < text.endIndex {
      let character = text[index]
      switch character {
      case ".":
        if !afterBracket {
          guard !current.isEmpty else { return nil }
          steps.append(.token(current))
        }
        current = ""
        afterBracket = false
      case "[":
        if !afterBracket {
          guard !current.isEmpty || steps.isEmpty == false || index == text.startIndex else {
            return nil
          }
          if !current.isEmpty { steps.append(.token(current)) }
        }
        guard let (step, close) = bracket(in: text, at: index) else { return nil }
        steps.append(step)
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
      steps.append(.token(current))
    }
    return steps
  }

  /// The step of the brackets opening at `open` in `text` (`[0]`, `[id=3]`, `[id="a]b"]`) and
  /// the position of their `]`.
  private static func bracket(
    in text: String, at open: String.Index
  ) -> (PathStep, String.Index)? {
    if let (id, rest) = JSONPath.elementStep(at: text[open...]) {
      return (.id(id), text.index(before: rest.startIndex))
    }
    let inside = text[text.index(after: open)...]
    guard let close = inside.firstIndex(of: "]") else { return nil }
    let token = String(inside[..<close])
    guard JSONPointer.index(token) != nil else { return nil }
    return (.token(token), close)
  }
}
