import StateStore

/// An updater that can say how to revert itself, for ``JournaledStore/undo()``.
///
/// ```swift
/// struct RemoveNote: InvertibleUpdater, Codable {
///   let index: Int
///   func updateState(_ state: inout NotesState) { state.notes.remove(at: index) }
///   func inverse(of oldState: NotesState) -> (any StateUpdater<NotesState>)? {
///     InsertNote(note: oldState.notes[index], at: index)
///   }
/// }
/// ```
///
/// The inverse is dispatched as a new updater and journaled like any other, so register its
/// type too. Undo reverts updaters dispatched to the root store; one dispatched through a scope
/// is journaled with its scope and is not offered for undo.
public protocol InvertibleUpdater<StateType>: StateUpdater {
  /// The updater that takes the state back to `oldState`, given the state just before this
  /// updater was applied; `nil` when this entry cannot be undone from there, and undo passes
  /// over it to the next older entry.
  ///
  /// It is applied to the state as it is when undo runs, after any later updater; a good
  /// inverse reverts this updater's own change only (remove the note it added, not "restore the
  /// whole list").
  func inverse(of oldState: StateType) -> (any StateUpdater<StateType>)?
}
