import Foundation
import StateStore

/// What makes a recorded session fail, for ``SessionShrinker``: the failure it keeps while it
/// removes entries.
///
/// ```swift
/// let wrongDone = try SessionCheck<TodoState>.expect("/todos[id=3]/done", equals: .bool(true))
/// let diverges = SessionCheck<TodoState>.divergesFromRecordedDiffs
/// let broken = SessionCheck<TodoState>.failing("no todo without a title") { state in
///   state.todos.contains { $0.title.isEmpty }
/// }
/// ```
///
/// A sub-session the check cannot judge (the value it looks at is not there, a recorded diff
/// does not apply) counts as passing: the shrinker keeps what makes the failure reproducible.
public struct SessionCheck<S: State & Codable>: Sendable {
  enum Kind: Sendable {
    case expect(path: [PathStep], pointer: String, value: JSONValue)
    case predicate(@Sendable (S) -> Bool)
    case throwing(@Sendable (S) throws -> Void)
    case diverges
  }

  let kind: Kind
  /// What the check says, for messages and the written test's comment.
  public let summary: String

  /// Fails when the value at `pointer` in the encoded final state is there and is not `value`.
  ///
  /// The shrinker finds the entry that last changed that value, and keeps the sub-sessions in
  /// which that entry, kept last, finds the value it found in the session (missing, or
  /// another value) and leaves the same wrong value: a sub-session in which the value is wrong
  /// only because the entries that set it are gone (a todo never marked done) does not count.
  /// The written test expects `value` after that entry. A position in an array of identified
  /// elements (`/todos/0`) names the element at that position at the end of the session, in
  /// every sub-session.
  ///
  /// - Parameters:
  ///   - pointer: A JSON Pointer (`/todos/0/done`) or a path naming an element by its
  ///     identifier, as diffs do (`/todos[id=3]/done`).
  ///   - value: The value the state should have there; numbers compare by value (`1` and
  ///     `1.0` are equal).
  /// - Throws: ``SessionShrinkError/badPointer(_:reason:)`` when `pointer` is not a path.
  /// - Complexity: O(length of `pointer`).
  public static func expect(_ pointer: String, equals value: JSONValue) throws(SessionShrinkError)
    -> SessionCheck
  {
    guard let path = JSONPath.steps(pointer, version: ActionLogFormat.version) else {
      throw .badPointer(
        pointer, reason: "a path starts with \"/\", as in /todos/0/done or /todos[id=3]/done")
    }
    return SessionCheck(
      kind: .expect(path: path, pointer: pointer, value: value),
      summary: "\(pointer) should be \(value.text())")
  }

  /// Fails when `isFailing` returns `true` for the final state.
  ///
  /// The written test replays the steps as they behave today and marks the step after which
  /// the check failed: write the right expectation there.
  public static func failing(
    _ description: String, when isFailing: @escaping @Sendable (S) -> Bool
  ) -> SessionCheck {
    SessionCheck(kind: .predicate(isFailing), summary: description)
  }

  /// Fails when `check` throws for the final state, as an invariant check does.
  public static func throwing(
    _ description: String, _ check: @escaping @Sendable (S) throws -> Void
  ) -> SessionCheck {
    SessionCheck(kind: .throwing(check), summary: description)
  }

  /// Fails when replaying an entry does not make the change the log recorded for it (a log
  /// recorded in diff mode, on code that behaved differently).
  ///
  /// The shrinker finds the first entry whose replay diverges, and keeps it last: the written
  /// test expects the recorded change there.
  public static var divergesFromRecordedDiffs: SessionCheck {
    SessionCheck(kind: .diverges, summary: "the replay should make the recorded changes")
  }
}

/// Why ``SessionShrinker`` could not shrink a session.
public enum SessionShrinkError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The log could not be read.
  case unreadableLog(ActionLogError)
  /// The log has no checkpoint before its first entry, and no initial state was given.
  case noInitialState
  /// The whole session passes the check: there is no failure to keep.
  case sessionPasses(check: String)
  /// A JSON Pointer given to a check is not one.
  case badPointer(String, reason: String)
  /// The check needs diffs, and the log has none.
  case noRecordedDiffs
  /// The state could not be encoded or decoded as JSON.
  case stateNotCodable(reason: String)

  /// What went wrong and how to fix it.
  public var description: String {
    switch self {
    case .unreadableLog(let error):
      "cannot read the log: \(error)"
    case .noInitialState:
      "the log has no checkpoint before its first entry: record it in diff mode, or with a "
        + "checkpoint interval, or pass the state it started from"
    case .sessionPasses(let check):
      "the whole session passes the check (\(check)): nothing to shrink"
    case .badPointer(let pointer, let reason):
      "\"\(pointer)\" is not a path: \(reason)"
    case .noRecordedDiffs:
      "the log records no diffs: record it in diff mode (recordsDiffs: true) to compare a "
        + "replay with it"
    case .stateNotCodable(let reason):
      "the state does not round-trip through JSON: \(reason)"
    }
  }
}
