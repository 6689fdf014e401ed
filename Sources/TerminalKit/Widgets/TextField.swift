/// A one-line text entry: the title being typed on the `add` and `edit` screens.
///
/// The field edits grapheme clusters (`Character`s), the way a person sees text: the arrow keys,
/// Home, End, Backspace and Delete treat an emoji, a flag or an accented letter as one character.
///
/// The insertion point is a `String.Index` that is always a character boundary of ``text``. That
/// holds by construction, whatever arrives: a key can carry a piece of a character (a combining
/// accent, the second half of a flag, a skin tone, a zero-width joiner and what follows it) that
/// Unicode joins to the character before it, or an edit can join the characters on either side
/// of it. After every change the field finds the insertion point again from a boundary that the
/// change cannot have moved: the start of the character before the edit, because whether a
/// position is a boundary depends only on the text before it and the scalar right at it.
/// Insertions then move the point to the end of the character that holds what was typed;
/// deletions leave it at the start of the character that now covers the place of the deletion.
///
/// Each key costs a few grapheme-cluster steps around the insertion point, never a walk from the
/// start of the text, so typing or pasting n characters at the end takes O(n) time.
package struct TextField: Equatable, Sendable {
  /// The text typed so far.
  package private(set) var text: String
  /// The insertion point: a character boundary of `text`, from `startIndex` to `endIndex`.
  package private(set) var cursor: String.Index
  /// How many grapheme clusters the field has stepped over since it was created.
  ///
  /// Tests read it to prove that an edit costs a bounded number of steps, independent of the
  /// length of the text; it plays no part in editing or in equality.
  package private(set) var steps = 0

  /// Creates a field holding `text`, with the insertion point at its end.
  package init(_ text: String = "") {
    self.text = text
    cursor = self.text.endIndex
  }

  /// The insertion point as a count of UTF-8 bytes from the start of the text.
  package var cursorOffset: Int { text.utf8.distance(from: text.startIndex, to: cursor) }

  package static func == (lhs: TextField, rhs: TextField) -> Bool {
    lhs.text == rhs.text && lhs.cursorOffset == rhs.cursorOffset
  }

  /// Applies an editing key; returns `false` for keys that do not edit (Enter, Escape, ...).
  ///
  /// A character containing a control code (C0, DEL or C1, which a paste can carry) is dropped:
  /// a title is one line of printable text.
  ///
  /// - Complexity: O(1) grapheme-cluster steps, plus a copy of the text after the insertion point
  ///   when editing in the middle (none at the end, where appending is amortised O(1)).
  package mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let character), .pasted(let character):
      insert(character)
    case .backspace:
      guard cursor > text.startIndex else { return true }
      let previous = step(before: cursor)
      remove(previous..<cursor)
    case .delete:
      guard cursor < text.endIndex else { return true }
      remove(cursor..<step(after: cursor))
    case .left:
      if cursor > text.startIndex { cursor = step(before: cursor) }
    case .right:
      if cursor < text.endIndex { cursor = step(after: cursor) }
    case .home: cursor = text.startIndex
    case .end: cursor = text.endIndex
    default: return false
    }
    return true
  }

  /// What to show in `width` columns, and the column of the insertion point within it.
  ///
  /// When the text is wider than the field, the view scrolls so the insertion point stays
  /// visible, keeping one column free for the cursor at the end. Wide characters count as two
  /// columns, so the cursor column is where the terminal's cursor must go.
  ///
  /// - Complexity: O(width): only the characters that can show are looked at.
  package func visible(inWidth width: Int) -> (text: String, cursorColumn: Int) {
    guard width > 1 else { return ("", 0) }
    var start = cursor
    var beforeWidth = 0
    while start > text.startIndex {
      let previous = text.index(before: start)
      let characterWidth = Self.shownWidth(text[previous])
      if beforeWidth + characterWidth > width - 1 { break }
      beforeWidth += characterWidth
      start = previous
    }
    var shown = ""
    var shownWidth = 0
    var index = start
    // One character past the width is enough for `truncated` to know it must cut.
    while index < text.endIndex, shownWidth <= width {
      let character = text[index]
      shown.append(character)
      shownWidth += Self.shownWidth(character)
      index = text.index(after: index)
    }
    return (shown.truncated(toWidth: width), beforeWidth)
  }

  // MARK: - Editing

  private mutating func insert(_ character: Character) {
    guard !character.unicodeScalars.contains(where: TerminalSafeText.isControl) else { return }
    let anchor = stableBoundary(before: cursor)
    let end = offset(of: cursor) + character.utf8.count
    if cursor == text.endIndex {
      text.append(character)
    } else {
      text.insert(character, at: cursor)
    }
    cursor = boundary(atOrAfter: end, from: anchor)
  }

  private mutating func remove(_ range: Range<String.Index>) {
    let anchor = stableBoundary(before: range.lowerBound)
    let place = offset(of: range.lowerBound)
    text.removeSubrange(range)
    cursor = boundary(atOrBefore: place, from: anchor)
  }

  /// The UTF-8 offset of a boundary that an edit at `index` cannot move: the start of the
  /// character before it (or the start of the text).
  ///
  /// A position is a boundary or not by the text before it and the scalar at it, and an edit at
  /// `index` changes neither for any position before `index`.
  private mutating func stableBoundary(before index: String.Index) -> Int {
    guard index > text.startIndex else { return 0 }
    return offset(of: step(before: index))
  }

  /// The first character boundary at or after the UTF-8 offset `target`, walking from the
  /// boundary at `anchor`.
  private mutating func boundary(atOrAfter target: Int, from anchor: Int) -> String.Index {
    var index = position(anchor)
    while index < text.endIndex, offset(of: index) < target {
      index = step(after: index)
    }
    return index
  }

  /// The last character boundary at or before the UTF-8 offset `target`, walking from the
  /// boundary at `anchor`.
  private mutating func boundary(atOrBefore target: Int, from anchor: Int) -> String.Index {
    var index = position(anchor)
    while index < text.endIndex {
      let next = step(after: index)
      if offset(of: next) > target { break }
      index = next
    }
    return index
  }

  private mutating func step(after index: String.Index) -> String.Index {
    steps += 1
    return text.index(after: index)
  }

  private mutating func step(before index: String.Index) -> String.Index {
    steps += 1
    return text.index(before: index)
  }

  /// The UTF-8 offset of `index`: O(1) on Swift's native UTF-8 strings.
  private func offset(of index: String.Index) -> Int {
    text.utf8.distance(from: text.startIndex, to: index)
  }

  /// The index at a UTF-8 offset that is known to be a character boundary: O(1).
  private func position(_ offset: Int) -> String.Index {
    text.utf8.index(text.startIndex, offsetBy: min(max(offset, 0), text.utf8.count))
  }

  /// The columns a character takes once drawn: a title loaded from storage can hold control
  /// codes, which the frame shows as visible symbols (see `TerminalSafeText.pictured(_:)`).
  private static func shownWidth(_ character: Character) -> Int {
    guard character.unicodeScalars.contains(where: TerminalSafeText.isControl) else {
      return character.displayWidth
    }
    return TerminalSafeText.pictured(String(character)).displayWidth
  }
}
