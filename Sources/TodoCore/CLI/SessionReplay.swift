/// `replay <log>`: the state an action log leads to from an empty list.
enum SessionReplay {
  /// Replays the log at `path` onto an empty list.
  static func replay(contentsOf path: String) throws -> AppState {
    throw UsageError("replay is not available yet: the action log has not landed")
  }
}
