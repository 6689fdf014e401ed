/// Journals a user's change made in the terminal UI, then applies it to the UI's store.
///
/// This is ``PerformChange`` for the UI's dependencies (both share `journalAndApply`): under the storage's exclusive lock the
/// store first catches up with what other `todo-cli` processes saved, the change is checked
/// against that latest state, journaled durably, and only then dispatched. A second `todo-cli
/// list` therefore sees every change as soon as the screen shows it.
struct SaveTodoChange: ReturningSideEffect {
  /// The change to save.
  let change: AnyTodoChange

  init(_ change: some TodoChange) {
    self.change = change.erased
  }

  func sideEffect(_ context: SideEffectContext<AppState, TerminalUIDependencies>) async throws
    -> JournalEntry?
  {
    try await context.journalAndApply(change, in: context.dependencies.storage)
  }
}
