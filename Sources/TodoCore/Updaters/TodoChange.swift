import StatePersistence

/// A change to the todo list that users ask for: recorded in the journal, listed by `history`,
/// revertible by `undo`.
///
/// Every change is a plain ``StateUpdater`` that is also `Codable`, so it can be written to the
/// action log and replayed. Before dispatching one, the app checks it with ``validate(in:)`` and
/// computes its ``inverse(in:)`` against the same state, which the journal keeps for `undo`.
protocol TodoChange: InvertibleUpdater, Codable, Hashable where StateType == AppState {
  /// The name under which the change is recorded in the action log.
  static var typeName: String { get }

  /// Throws the reason why this change cannot apply to `state`, such as an unknown id.
  func validate(in state: AppState) throws(TodoError)

  /// Whether applying this change to `state` would change anything; the app journals only
  /// changes that do, so that `undo` never reverts a change that did nothing.
  func changes(_ state: AppState) -> Bool

  /// The change that takes `state` back from after this change to before it, or `nil` if this
  /// change cannot be undone.
  ///
  /// Call it on the state *before* dispatching the change.
  func inverse(in state: AppState) -> AnyTodoChange?

  /// A short description for `history`, such as `add #3 "Buy milk"`.
  var summary: String { get }
}

extension AppState {
  /// The todo with `id`, or the error naming the id that is not there.
  func existingTodo(_ id: Int) throws(TodoError) -> Todo {
    guard let todo = todos[id: id] else { throw .noSuchTodo(id) }
    return todo
  }
}

extension TodoChange {
  /// This change in the type-erased form the storage and the history hand around.
  var erased: AnyTodoChange { AnyTodoChange(self) }

  /// The change ``inverse(in:)`` gives, for the journaled store's `undo()`.
  func inverse(of oldState: AppState) -> (any StateUpdater<AppState>)? {
    guard let inverse = inverse(in: oldState) else { return nil }
    return Self.updater(inverse.change)
  }

  /// `change` as the store's kind of updater.
  private static func updater(_ change: some TodoChange) -> any StateUpdater<AppState> {
    change
  }
}
