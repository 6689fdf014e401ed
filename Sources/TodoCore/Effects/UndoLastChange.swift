/// Reverts the newest change that is not reverted yet, by journaling and dispatching its
/// inverse; run it again to go further back.
///
/// History stays append-only: the revert is a new journal entry that names the entry it undoes.
struct UndoLastChange: ReturningSideEffect {
  /// Journals the inverse of the last change, then brings the store up to the state it was
  /// applied to and dispatches it.
  ///
  /// - Throws: ``TodoError/nothingToUndo`` when every change is already reverted, or a
  ///   ``StorageError``.
  func sideEffect(_ context: SideEffectContext<AppState, TodoDependencies>) async throws
    -> UndoResult
  {
    guard let result = try await context.dependencies.storage.undo() else {
      throw TodoError.nothingToUndo
    }
    await context.catchUp(with: result.before)
    await context.dispatch(result.revert.change)
    return result
  }
}
