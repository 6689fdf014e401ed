/// Any of the app's ``TodoChange``s, as one `Hashable` value: what the journal's history and
/// the storage hand around.
///
/// It holds the change itself and reaches it through the ``TodoChange`` protocol only, so a new
/// change needs no case here: it is one type, listed once in ``allTypes``.
struct AnyTodoChange: Sendable, Hashable {
  /// Every change type, for registering with an action log under its ``TodoChange/typeName``:
  /// the one list a new change joins.
  static let allTypes: [any TodoChange.Type] = [
    AddTodo.self, SetDone.self, EditTitle.self, RemoveTodo.self, ClearDone.self,
    RestoreTodos.self, TagTodo.self, UntagTodo.self, SetDue.self, SetPriority.self,
  ]

  /// The wrapped change.
  let change: any TodoChange

  /// Wraps `change`.
  init(_ change: some TodoChange) {
    self.change = change
  }

  /// The name the wrapped change is recorded under.
  var typeName: String { type(of: change).typeName }

  /// Applies the wrapped change to `state`.
  func apply(to state: inout AppState) {
    change.updateState(&state)
  }

  /// Dispatches the wrapped change to `store` with its static type.
  @MainActor
  func dispatch<D>(to store: Store<AppState, D>) {
    func open(_ change: some TodoChange) { store.dispatch(change) }
    open(change)
  }

  /// Whether both wrap equal changes of the same type.
  static func == (lhs: AnyTodoChange, rhs: AnyTodoChange) -> Bool {
    AnyHashable(lhs.change) == AnyHashable(rhs.change)
  }

  /// Hashes the wrapped change with its type.
  func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(change))
  }
}
