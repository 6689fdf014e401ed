/// `--record <file>`: appends the changes one run dispatches to an action log.
@MainActor
final class SessionRecording {
  /// Starts recording `store` into the log at `path`, or returns `nil` when `path` is `nil`.
  static func start(for store: TodoStore, at path: String?) throws -> SessionRecording? {
    guard path != nil else { return nil }
    throw UsageError("--record is not available yet: the action log has not landed")
  }

  /// Writes what is pending and makes it durable.
  func finish() throws {}

  /// Stops recording.
  func stop() {}
}
