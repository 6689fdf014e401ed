import StateStoreUI
import TerminalKit

/// What the `detail` screen shows: the todo whose id is the screen's local state.
struct DetailViewModel: ViewModelWithLocalState {
  /// The id of the todo shown.
  let todoID: Int
  /// The todo, or `nil` once it no longer exists.
  let todo: Todo?

  /// Finds the todo with id `todoID` in `state`.
  init(state: AppState, localState todoID: Int) {
    self.todoID = todoID
    todo = state.todos[id: todoID]
  }
}
