import ActionLog

extension TitleEditorState {
  /// Registers the feature's updaters, under stable names, in the registry of the scope the app
  /// mounts the feature on: `registerUpdaters(in: registry.scope("titleEditor", state: ...))`.
  package static func registerUpdaters(in registry: ActionLogRegistry<TitleEditorState>) {
    registry.register(AcceptTitle.self, name: "AcceptTitle")
    registry.register(RefuseTitle.self, name: "RefuseTitle")
  }
}
