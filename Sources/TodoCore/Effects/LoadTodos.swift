/// Reads the stored todos and puts them in the store.
///
/// Dispatches ``LoadStoredState`` only when the stored todos differ from the store's.
struct LoadTodos: SideEffect {
  /// Loads from ``TodoDependencies/storage``.
  ///
  /// - Complexity: O(todos + journal entries since the last snapshot).
  func sideEffect(_ context: SideEffectContext<AppState, TodoDependencies>) async throws {
    let stored = try await context.dependencies.storage.load()
    if await !context.state.hasSameTodos(as: stored) {
      await context.dispatch(LoadStoredState(stored))
    }
  }
}
