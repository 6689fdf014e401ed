/// A key, or keys, and what it does, for a bottom line of hints and a help screen.
package struct KeyHint: Equatable, Sendable {
  /// The keys as the user types them, such as `j/k` or `enter`.
  package let keys: String
  /// What they do, in a few words.
  package let action: String

  /// Creates a hint: `keys` do `action`.
  package init(_ keys: String, _ action: String) {
    self.keys = keys
    self.action = action
  }

  /// The hints on one line, `keys action` two spaces apart: the bottom line of a screen.
  ///
  /// - Complexity: O(length of the hints).
  package static func line(_ hints: [KeyHint]) -> String {
    hints.map { "\($0.keys) \($0.action)" }.joined(separator: "  ")
  }

  /// The hints as the lines of a help box: the keys in a column as wide as the widest, then
  /// three spaces, then the action.
  ///
  /// - Complexity: O(length of the hints).
  package static func helpLines(_ hints: [KeyHint]) -> [String] {
    let keyWidth = hints.map(\.keys.displayWidth).max() ?? 0
    return hints.map { hint in
      hint.keys + String(repeating: " ", count: keyWidth - hint.keys.displayWidth + 3)
        + hint.action
    }
  }
}
