/// What the title editor asks of whoever mounts it.
package struct TitleEditorDependencies: Sendable {
  /// The reason `title` (already trimmed) cannot be a title, or `nil` when it can.
  ///
  /// The app owns the rule: the feature only reports what the rule says.
  package var problem: @Sendable (String) -> String?

  package init(problem: @escaping @Sendable (String) -> String?) {
    self.problem = problem
  }
}
