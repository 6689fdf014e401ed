extension String {
  /// The text cut to at most `width` columns, ending in `…` when anything was cut.
  ///
  /// Cuts fall between grapheme clusters only, so an emoji or a letter with its accents is kept
  /// or dropped whole. A wide character that would straddle the limit is dropped, which can leave
  /// the result one column short of `width`; ``fitted(toWidth:)`` pads it.
  ///
  /// - Complexity: O(n) in the length of the text.
  package func truncated(toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    guard displayWidth > width else { return self }
    let room = width - 1
    var used = 0
    var result = ""
    for character in self {
      let characterWidth = character.displayWidth
      if used + characterWidth > room { break }
      used += characterWidth
      result.append(character)
    }
    return result + "…"
  }

  /// The text cut with an ellipsis or padded with spaces to exactly `width` columns.
  ///
  /// - Complexity: O(n) in the length of the text.
  package func fitted(toWidth width: Int) -> String {
    let cut = truncated(toWidth: width)
    let missing = width - cut.displayWidth
    return missing > 0 ? cut + String(repeating: " ", count: missing) : cut
  }

  /// The part of the text that covers columns `start..<end`, padded with spaces where a wide
  /// character is cut in half by either edge or where the text is shorter.
  ///
  /// - Complexity: O(n) in the length of the text.
  package func columns(_ range: Range<Int>) -> String {
    var result = ""
    var column = 0
    for character in self {
      let characterWidth = character.displayWidth
      let next = column + characterWidth
      if next <= range.lowerBound {
        column = next
        continue
      }
      if column >= range.upperBound { break }
      if column < range.lowerBound || next > range.upperBound {
        // Half of a wide character shows as a blank cell rather than shifting what follows.
        let visible = min(next, range.upperBound) - max(column, range.lowerBound)
        result += String(repeating: " ", count: visible)
      } else {
        result.append(character)
      }
      column = next
    }
    let missing = range.count - result.displayWidth
    return missing > 0 ? result + String(repeating: " ", count: missing) : result
  }
}

extension String {
  /// The text broken into lines of at most `width` columns, between grapheme clusters, preferring
  /// to break after a space.
  ///
  /// - Complexity: O(n) in the length of the text.
  package func wrapped(toWidth width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    var lastSpace: String.Index?
    for character in self {
      let characterWidth = character.displayWidth
      if lineWidth + characterWidth > width, !line.isEmpty {
        if let space = lastSpace, character != " " {
          let rest = String(line[line.index(after: space)...])
          lines.append(String(line[..<space]))
          line = rest
        } else {
          lines.append(line)
          line = ""
        }
        lineWidth = line.displayWidth
        lastSpace = nil
        if character == " ", line.isEmpty { continue }
      }
      if character == " " { lastSpace = line.endIndex }
      line.append(character)
      lineWidth += characterWidth
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
