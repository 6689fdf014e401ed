import StateStore

/// What a read-only open found in a journal's directory: the state up to any damage, and the
/// damage.
public struct RecoveredState<S: State>: Sendable {
  /// The state after the last readable entry: the snapshot and every entry after it, up to the
  /// damage if there is one.
  public let state: S
  /// The number of the last entry the state includes; 0 for none.
  public let lastSequence: Int
  /// What stopped the reading early, naming the file and the line; `nil` when every file was
  /// read whole (a torn tail left by a crash is not damage).
  public let damage: PersistenceError?
}
