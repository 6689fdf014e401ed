/// What the status line asks of whoever mounts it.
package struct StatusLineDependencies: Sendable {
  /// The words for `error` on the status line: the app knows its errors, the feature does not.
  package var describe: @Sendable (any Error) -> String

  package init(describe: @escaping @Sendable (any Error) -> String) {
    self.describe = describe
  }
}
