import Navigation
import StateStoreUI
import TerminalKit

/// What the `confirm` box shows: the todo that `y` deletes, as the state has it now.
struct ConfirmViewModel: ViewModelWithLocalState {
  let todo: Todo

  /// The todo asked about (the local state), with its current title if it still exists.
  init(state: AppState, localState todo: Todo) {
    self.todo = state.todos[id: todo.id] ?? todo
  }
}

/// What the `help` box lists: the keys of the screen below, the box's local state.
struct HelpViewModel: ViewModelWithLocalState {
  /// The keys listed, and whose they are.
  struct Content: Equatable, Sendable {
    let entries: [KeyHint]
    let screenBelow: RouteElementIdentifier
  }

  let content: Content

  init(state: AppState, localState content: Content) {
    self.content = content
  }
}

/// What the `add` and `edit` boxes show: the title being typed, which is local state until it
/// is saved.
struct TitleEntryViewModel: ViewModelWithLocalState {
  /// What the entered title is for.
  enum Purpose: Equatable, Sendable {
    /// A new todo.
    case add
    /// A new title for this todo.
    case edit(Todo)
    /// A due date for this todo, on the date screen.
    case due(Todo)
  }

  /// The box's local state.
  struct Entry: Equatable, Sendable {
    let purpose: Purpose
    /// The title being typed.
    var field: TextField
  }

  let boxTitle: String
  /// What is typed: `Title: ` or `Date: `.
  let label: String
  let field: TextField

  init(state: AppState, localState entry: Entry) {
    switch entry.purpose {
    case .add: boxTitle = "Add a todo"
    case .edit(let todo): boxTitle = "Edit todo \(todo.id)"
    case .due(let todo): boxTitle = "Due date of todo \(todo.id) (YYYY-MM-DD, +3d, none)"
    }
    if case .due = entry.purpose { label = "Date: " } else { label = "Title: " }
    field = entry.field
  }
}
