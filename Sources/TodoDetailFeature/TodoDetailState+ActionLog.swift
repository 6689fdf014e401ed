import ActionLog

extension TodoDetailState {
  /// Registers the feature's updaters, under stable names, in the registry of the scope the app
  /// mounts the feature on: `registerUpdaters(in: registry.scope("detail", state: ...))`.
  package static func registerUpdaters(in registry: ActionLogRegistry<TodoDetailState>) {
    registry.register(OpenTodoDetail.self, name: "OpenTodoDetail")
    registry.register(CloseTodoDetail.self, name: "CloseTodoDetail")
    registry.register(AcceptDate.self, name: "AcceptDate")
    registry.register(RefuseDate.self, name: "RefuseDate")
  }
}
