import StateStore

/// Puts `message` on the status line, replacing what was there.
package struct ShowStatus: StateUpdater, Codable, Hashable {
  /// The message.
  package var message: String

  package init(_ message: String) {
    self.message = message
  }

  package func updateState(_ state: inout StatusLineState) {
    state.message = message
  }
}

/// Empties the status line.
package struct ClearStatus: StateUpdater, Codable, Hashable {
  package init() {}

  package func updateState(_ state: inout StatusLineState) {
    state.message = nil
  }
}
