/// Reads every journaled change, oldest first.
struct LoadHistory: ReturningSideEffect {
  /// Reads the journal.
  ///
  /// - Complexity: O(journal length).
  func sideEffect(_ context: SideEffectContext<AppState, TodoDependencies>) async throws
    -> [JournalEntry]
  {
    try await context.dependencies.storage.history()
  }
}
