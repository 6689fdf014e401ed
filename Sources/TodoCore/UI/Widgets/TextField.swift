/// A one-line text entry: the title being typed on the `add` and `edit` screens.
///
/// The insertion point moves by grapheme cluster, so the arrow keys and Backspace treat an emoji
/// or an accented letter as one character, the way a person sees it.
struct TextField: Equatable, Sendable {
  /// The text typed so far.
  private(set) var text: String
  /// The insertion point, as a count of characters from the start.
  private(set) var cursor: Int

  /// Creates a field holding `text`, with the insertion point at its end.
  init(_ text: String = "") {
    self.text = text
    cursor = text.count
  }

  /// Applies an editing key; returns `false` for keys that do not edit (Enter, Escape, ...).
  ///
  /// - Complexity: O(n) in the length of the text.
  mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let character):
      text.insert(character, at: index(cursor))
      cursor += 1
    case .backspace:
      guard cursor > 0 else { return true }
      cursor -= 1
      text.remove(at: index(cursor))
    case .delete:
      guard cursor < text.count else { return true }
      text.remove(at: index(cursor))
    case .left: cursor = max(cursor - 1, 0)
    case .right: cursor = min(cursor + 1, text.count)
    case .home: cursor = 0
    case .end: cursor = text.count
    default: return false
    }
    return true
  }

  /// What to show in `width` columns, and the column of the insertion point within it.
  ///
  /// When the text is wider than the field, the view scrolls so the insertion point stays
  /// visible, keeping one column free for the cursor at the end.
  ///
  /// - Complexity: O(n) in the length of the text.
  func visible(inWidth width: Int) -> (text: String, cursorColumn: Int) {
    guard width > 1 else { return ("", 0) }
    let before = text[..<index(cursor)]
    var start = before.startIndex
    var beforeWidth = before.displayWidth
    while beforeWidth > width - 1, start < before.endIndex {
      beforeWidth -= before[start].displayWidth
      start = before.index(after: start)
    }
    let shown = String(text[start...]).truncated(toWidth: width)
    return (shown, beforeWidth)
  }

  private func index(_ offset: Int) -> String.Index {
    text.index(text.startIndex, offsetBy: offset)
  }
}
