import ActionLog

/// The action-log registry of the todo app: every updater it dispatches, under stable names.
enum TodoActionLog {
  /// A registry with every ``TodoChange`` under its ``TodoChange/typeName`` and
  /// ``LoadStoredState``, which a recorded run dispatches if another process changed the store
  /// while it ran.
  static func makeRegistry() -> ActionLogRegistry<AppState> {
    let registry = ActionLogRegistry<AppState>()
    for type in AnyTodoChange.allTypes { register(type, in: registry) }
    registry.register(LoadStoredState.self, name: "LoadStoredState")
    return registry
  }

  private static func register<U: TodoChange>(
    _ type: U.Type, in registry: ActionLogRegistry<AppState>
  ) {
    registry.register(type, name: U.typeName)
  }
}
