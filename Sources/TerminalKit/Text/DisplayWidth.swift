/// How many terminal columns text takes, counted by grapheme cluster.
///
/// Terminals lay text out in cells: most characters take one, East Asian wide and fullwidth
/// characters and emoji take two, and combining marks, zero-width joiners and variation selectors
/// take none because they attach to the character before them. Counting `Character`s (grapheme
/// clusters) rather than scalars is what keeps a family emoji built from five scalars at two
/// columns.
extension Character {
  /// The number of terminal columns this character takes: 0, 1 or 2.
  package var displayWidth: Int {
    let scalars = unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.count == 1 { return first.displayWidth }
    // An emoji presentation selector, a keycap, a skin tone or a joined emoji sequence: two cells.
    if scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x20E3 }),
      scalars.contains(where: \.properties.isEmoji)
    {
      return 2
    }
    if scalars.contains(where: { $0.value == 0x200D }),
      scalars.contains(where: \.properties.isEmojiPresentation)
    {
      return 2
    }
    return scalars.lazy.map(\.displayWidth).first { $0 > 0 } ?? 0
  }
}

extension Unicode.Scalar {
  /// The number of terminal columns this scalar takes on its own: 0, 1 or 2.
  package var displayWidth: Int {
    let value = value
    if value < 0x7F { return value < 0x20 ? 0 : 1 }
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator,
      .paragraphSeparator:
      return 0
    default: break
    }
    // Hangul vowels and final consonants join the syllable block that a leading consonant starts.
    if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
    if properties.isEmojiPresentation { return 2 }
    return Self.isEastAsianWide(value) ? 2 : 1
  }

  /// Whether the scalar is East Asian Wide (W) or Fullwidth (F) in Unicode's EastAsianWidth.txt,
  /// outside the emoji that `isEmojiPresentation` already covers.
  private static func isEastAsianWide(_ value: UInt32) -> Bool {
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// The wide and fullwidth blocks, sorted, so a binary search finds a scalar.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F,  // Hangul Jamo leading consonants
    0x231A...0x231B,
    0x2329...0x232A,
    0x23E9...0x23EC,
    0x23F0...0x23F0,
    0x23F3...0x23F3,
    0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols
    0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility, CJK compatibility
    0x3400...0x4DBF,  // CJK extension A
    0x4E00...0x9FFF,  // CJK unified ideographs
    0xA000...0xA4CF,  // Yi
    0xA960...0xA97F,  // Hangul Jamo extended A
    0xAC00...0xD7A3,  // Hangul syllables
    0xF900...0xFAFF,  // CJK compatibility ideographs
    0xFE10...0xFE19,  // vertical forms
    0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
    0xFF00...0xFF60,  // fullwidth forms
    0xFFE0...0xFFE6,
    0x16FE0...0x16FE4,
    0x17000...0x18AFF,  // Tangut
    0x1B000...0x1B16F,  // Kana supplement and extended
    0x1F200...0x1F2FF,  // enclosed ideographic supplement
    0x20000...0x2FFFD,  // CJK extensions B to F
    0x30000...0x3FFFD,  // CJK extension G and beyond
  ]
}

extension StringProtocol {
  /// The number of terminal columns the text takes.
  ///
  /// - Complexity: O(n) in the length of the text.
  package var displayWidth: Int {
    reduce(0) { $0 + $1.displayWidth }
  }
}
