import StateStore

/// Records a title the editor accepted.
package struct AcceptTitle: StateUpdater, Codable, Hashable {
  /// The accepted title, trimmed.
  package var title: String

  package init(title: String) {
    self.title = title
  }

  package func updateState(_ state: inout TitleEditorState) {
    state.accepted = title
    state.refusal = nil
  }
}

/// Records why the editor refused a title.
package struct RefuseTitle: StateUpdater, Codable, Hashable {
  /// The reason, for the user.
  package var reason: String

  package init(reason: String) {
    self.reason = reason
  }

  package func updateState(_ state: inout TitleEditorState) {
    state.refusal = reason
  }
}
