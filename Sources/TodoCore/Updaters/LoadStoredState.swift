/// Replaces the todos and `nextID` with what storage holds: how a store catches up with the disk.
///
/// The features' slices are not stored, so they are left as they are.
///
/// This is bookkeeping, not a user's change: it is never journaled, and the app does not record
/// it with `--record`.
struct LoadStoredState: StateUpdater, Codable, Hashable {
  /// The state read from storage.
  var state: AppState

  /// Creates the updater that replaces the state with `state`.
  init(_ state: AppState) {
    self.state = state
  }

  /// Replaces the todos and `nextID`.
  func updateState(_ state: inout AppState) {
    state.todos = self.state.todos
    state.nextID = self.state.nextID
  }
}
