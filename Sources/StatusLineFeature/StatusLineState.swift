import StateStore

/// What the status line shows: one message, until the next key clears it.
package struct StatusLineState: State, Hashable {
  /// The message, such as why a change was refused; `nil` when the line is empty.
  package var message: String?

  /// An empty slice: nothing accepted, refused or shown yet.
  package init() {}

  package init(message: String? = nil) {
    self.message = message
  }
}
