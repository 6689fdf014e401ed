/// Reads every journaled change, oldest first.
public struct LoadHistory: ReturningSideEffect {
  /// Creates the effect.
  public init() {}

  /// Reads the journal.
  ///
  /// - Complexity: O(journal length).
  public func sideEffect(_ context: SideEffectContext<AppState, TodoDependencies>) async throws
    -> [JournalEntry]
  {
    try context.dependencies.storage.history()
  }
}
