import ActionLog

extension TodoListState {
  /// Registers the feature's updaters, under stable names, in the registry of the scope the app
  /// mounts the feature on: `registerUpdaters(in: registry.scope("list", state: ...))`.
  package static func registerUpdaters(in registry: ActionLogRegistry<TodoListState>) {
    registry.register(BeginFilterEditing.self, name: "BeginFilterEditing")
    registry.register(SetFilterText.self, name: "SetFilterText")
    registry.register(EndFilterEditing.self, name: "EndFilterEditing")
    registry.register(CycleSort.self, name: "CycleSort")
  }
}
