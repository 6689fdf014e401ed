import ActionLog

extension StatusLineState {
  /// Registers the feature's updaters, under stable names, in the registry of the scope the app
  /// mounts the feature on: `registerUpdaters(in: registry.scope("statusLine", state: ...))`.
  package static func registerUpdaters(in registry: ActionLogRegistry<StatusLineState>) {
    registry.register(ShowStatus.self, name: "ShowStatus")
    registry.register(ClearStatus.self, name: "ClearStatus")
  }
}
