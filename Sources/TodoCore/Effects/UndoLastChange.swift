/// What `undo` did: the entry it reverted and the entry it journaled to revert it.
struct UndoResult: Sendable, Hashable {
  /// The change that was reverted.
  var undone: JournalEntry
  /// The journaled revert, whose ``JournalEntry/undoes`` is `undone.seq`.
  var revert: JournalEntry
}

/// Reverts the newest change that is not reverted yet, by journaling and dispatching its
/// inverse; run it again to go further back.
///
/// History stays append-only: the revert is a new journal entry that names the entry it undoes.
struct UndoLastChange: ReturningSideEffect {
  /// Journals and dispatches the inverse of the last change.
  ///
  /// - Throws: ``TodoError/nothingToUndo`` when every change is already reverted, or a
  ///   ``StorageError``.
  func sideEffect(_ context: SideEffectContext<AppState, TodoDependencies>) async throws
    -> UndoResult
  {
    try await context.dependencies.storage.withExclusiveAccess { transaction in
      let stored = transaction.state
      await context.catchUp(with: stored)
      guard let target = try transaction.lastUndoableEntry(), let inverse = target.inverse else {
        throw TodoError.nothingToUndo
      }
      try inverse.change.validate(in: stored)
      let entries = try transaction.append([
        JournalDraft(
          change: inverse, inverse: nil, undoes: target.seq,
          time: context.dependencies.clock.now())
      ])
      await context.dispatch(inverse)
      return UndoResult(undone: target, revert: entries[0])
    }
  }
}
