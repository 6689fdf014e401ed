/// Applies a user's change, from a command or the terminal UI: checks it against the latest
/// stored todos, journals it durably, then dispatches it.
///
/// The storage decides on the change under its exclusive lock, on the state with everything
/// other processes stored, so a long-running UI and one-off commands can share a store: a
/// second `todo-cli list` sees every change as soon as the screen shows it. The store is then
/// brought up to that state and given the change: it never shows a change that is not saved.
///
/// Returns the journal entry as written (for ``AddTodo`` its payload carries the chosen id), or
/// `nil` when the change would not alter anything, in which case nothing is journaled.
struct PerformChange: ReturningSideEffect {
  /// The change to apply.
  var change: AnyTodoChange

  /// Creates the effect that applies `change`.
  init(_ change: AnyTodoChange) {
    self.change = change
  }

  /// Creates the effect that applies `change`.
  init(_ change: some TodoChange) {
    self.change = change.erased
  }

  /// Journals and dispatches the change.
  ///
  /// - Throws: ``TodoError`` if the change does not apply (an unknown id, a blank title), or
  ///   a ``StorageError``; nothing is changed then.
  func sideEffect(_ context: SideEffectContext<AppState, TodoDependencies>) async throws
    -> JournalEntry?
  {
    let change = self.change
    let stored = try await context.dependencies.storage.store { stored in
      var change = change
      if var add = change.change as? AddTodo, add.id == nil {
        // The journal records the id, so that replaying reproduces it.
        add.id = stored.nextID
        change = add.erased
      }
      try change.change.validate(in: stored)
      return change.change.changes(stored) ? change : nil
    }
    guard let stored else { return nil }
    await context.catchUp(with: stored.before)
    await context.dispatch(stored.entry.change)
    return stored.entry
  }
}

extension SideEffectContext where S == AppState {
  /// Replaces the store's todos with `stored`'s if they differ.
  ///
  /// - Complexity: O(todos).
  func catchUp(with stored: AppState) async {
    if await !state.hasSameTodos(as: stored) {
      await dispatch(LoadStoredState(stored))
    }
  }

  /// Dispatches the wrapped change with its static type.
  func dispatch(_ change: AnyTodoChange) async {
    func open(_ change: some TodoChange) async { await dispatch(change) }
    await open(change.change)
  }
}
