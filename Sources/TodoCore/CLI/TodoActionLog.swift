import ActionLog
import StatusLineFeature
import TitleEditorFeature
import TodoDetailFeature
import TodoListFeature

/// The action-log registry of the todo app: every updater it dispatches, under stable names.
enum TodoActionLog {
  /// A registry with every ``TodoChange`` under its ``TodoChange/typeName`` and
  /// ``LoadStoredState``, which a recorded run dispatches if another process changed the store
  /// while it ran, at the root; and the feature modules' updaters under their scopes.
  ///
  /// The journal's changes stay root updaters: every journal and `--record` log written so far
  /// names no scope, and they keep replaying as they are. An updater dispatched through a
  /// feature's scope is written with `"scope"` and replays into that feature's slice.
  static func makeRegistry() -> ActionLogRegistry<AppState> {
    let registry = ActionLogRegistry<AppState>()
    for type in AnyTodoChange.allTypes { register(type, in: registry) }
    registry.register(LoadStoredState.self, name: "LoadStoredState")
    TitleEditorState.registerUpdaters(in: registry.scope("titleEditor", state: \.titleEditor))
    StatusLineState.registerUpdaters(in: registry.scope("statusLine", state: \.statusLine))
    TodoListState.registerUpdaters(in: registry.scope("list", state: \.list))
    TodoDetailState.registerUpdaters(in: registry.scope("detail", state: \.detail))
    return registry
  }

  private static func register<U: TodoChange>(
    _ type: U.Type, in registry: ActionLogRegistry<AppState>
  ) {
    registry.register(type, name: U.typeName)
  }
}
