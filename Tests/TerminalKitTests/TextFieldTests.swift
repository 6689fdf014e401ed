import TerminalKit
import Testing

/// The text field against a reference model that recomputes every character boundary of the
/// whole text after each key: slow, obviously right, and independent of the field's own walk.
@Suite("Text field: grapheme editing that no key sequence can break")
struct TextFieldTests {
  /// What a field must do, computed the slow way from the whole text.
  private struct Model {
    var bytes: [UInt8] = []
    var cursor = 0

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Every character boundary as a UTF-8 offset, from 0 to the end.
    var boundaries: [Int] {
      let text = text
      return text.indices.map { text.utf8.distance(from: text.startIndex, to: $0) }
        + [bytes.count]
    }

    mutating func apply(_ key: Key) {
      let boundaries = boundaries
      switch key {
      case .character(let character):
        guard
          !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return }
        let inserted = Array(String(character).utf8)
        bytes.insert(contentsOf: inserted, at: cursor)
        let target = cursor + inserted.count
        cursor = self.boundaries.first { $0 >= target } ?? bytes.count
      case .backspace:
        guard let previous = boundaries.last(where: { $0 < cursor }) else { return }
        bytes.removeSubrange(previous..<cursor)
        cursor = self.boundaries.last { $0 <= previous } ?? 0
      case .delete:
        guard let next = boundaries.first(where: { $0 > cursor }) else { return }
        bytes.removeSubrange(cursor..<next)
        cursor = self.boundaries.last { $0 <= cursor } ?? 0
      case .left: cursor = boundaries.last { $0 < cursor } ?? cursor
      case .right: cursor = boundaries.first { $0 > cursor } ?? cursor
      case .home: cursor = 0
      case .end: cursor = bytes.count
      default: break
      }
    }
  }

  /// A small, seeded generator, so a failure can be replayed from its seed.
  private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// The awkward pieces: each arrives as its own key, the way a split read delivers it.
  private static let pieces: [Character] = [
    "a", "e", "x", " ", "\u{301}", "\u{308}", "\u{200D}", "\u{FE0F}", "🇺", "🇸", "🇫", "🇷",
    "👍", "🏻", "🏽", "🏿", "👨", "👩", "👧", "❤", "漢", "字", "한", "ｈ", "😀", "1", "\u{20E3}",
    "\u{1100}", "\u{1161}", "\u{11A8}", "\u{9B}", "é",
  ]

  private static let moves: [Key] = [.left, .right, .home, .end, .backspace, .delete]

  private func check(_ field: TextField, _ model: Model, _ context: @autoclosure () -> String) {
    #expect(Array(field.text.utf8) == model.bytes, "\(context())")
    #expect(field.cursorOffset == model.cursor, "\(context())")
    #expect(
      model.boundaries.contains(field.cursorOffset), "cursor splits a character: \(context())")
    #expect(field.text.displayWidth >= 0)
  }

  @Test("Random key sequences match the model and never trap", arguments: 0..<40)
  func randomSequences(seed: UInt64) {
    var generator = SplitMix(state: seed)
    var field = TextField()
    var model = Model()
    var keys: [Key] = []
    for _ in 0..<150 {
      let key: Key =
        Int.random(in: 0..<10, using: &generator) < 7
        ? .character(Self.pieces.randomElement(using: &generator) ?? "a")
        : Self.moves.randomElement(using: &generator) ?? .left
      keys.append(key)
      _ = field.handle(key)
      model.apply(key)
      check(field, model, "seed \(seed), keys \(keys)")
      _ = field.visible(inWidth: 7)
    }
  }

  @Test("Every pair of pieces typed at every position of every short text matches the model")
  func sweep() {
    let starts = ["", "e", "🇺", "🇺🇸🇫", "👨\u{200D}", "a\u{301}b", "👍x🏽", "漢a"]
    for start in starts {
      let count = start.count
      for position in 0...count {
        for first in Self.pieces {
          for second in ["\u{301}", "🇸", "🏽", "\u{200D}", "👩"] as [Character] {
            var field = TextField(start)
            var model = Model(bytes: Array(start.utf8), cursor: start.utf8.count)
            var keys: [Key] = [.home] + Array(repeating: .right, count: position)
            keys += [.character(first), .character(second), .left, .backspace, .delete, .right]
            for key in keys {
              _ = field.handle(key)
              model.apply(key)
            }
            check(field, model, "start \(start.debugDescription), at \(position), \(keys)")
          }
        }
      }
    }
  }

  @Test("cafe then a combining acute typed as its own key is café, with the cursor after it")
  func combiningAccent() {
    var field = TextField()
    for key in "cafe".map(Key.character) + [.character("\u{301}")] { _ = field.handle(key) }
    #expect(field.text == "café")
    #expect(field.text.count == 4)
    #expect(field.cursor == field.text.endIndex)
    _ = field.handle(.backspace)
    #expect(field.text == "caf")
  }

  @Test(
    "Pieces typed one key at a time join into one character",
    arguments: [
      (["🇺", "🇸"], "🇺🇸"), (["👍", "🏽"], "👍🏽"), (["👨", "\u{200D}", "👩", "\u{200D}", "👧"], "👨‍👩‍👧"),
      (["❤", "\u{FE0F}"], "❤️"), (["1", "\u{FE0F}", "\u{20E3}"], "1️⃣"),
    ] as [([Character], String)])
  func joins(pieces: [Character], expected: String) {
    var field = TextField("x")
    for piece in pieces { _ = field.handle(.character(piece)) }
    #expect(field.text == "x" + expected)
    #expect(field.text.count == 2)
    _ = field.handle(.left)
    #expect(field.cursorOffset == 1, "one Left crosses the whole joined character")
    _ = field.handle(.delete)
    #expect(field.text == "x")
  }

  @Test("Wide characters move the cursor column by two")
  func wideCursor() {
    var field = TextField("a漢字👍🏽")
    #expect(field.visible(inWidth: 20).cursorColumn == 7)
    _ = field.handle(.left)
    #expect(field.visible(inWidth: 20).cursorColumn == 5)
    _ = field.handle(.left)
    #expect(field.visible(inWidth: 20).cursorColumn == 3)
    _ = field.handle(.home)
    #expect(field.visible(inWidth: 20).cursorColumn == 0)
    _ = field.handle(.end)
    #expect(field.visible(inWidth: 20).cursorColumn == 7)
  }

  @Test("A 10,000-character paste costs a bounded number of steps per character")
  func linearPaste() {
    let unit: [Character] = ["e", "\u{301}", "🇺", "🇸", "漢", "👍", "🏽", "👨", "\u{200D}", "👩", " "]
    func paste(_ count: Int) -> TextField {
      var field = TextField()
      for index in 0..<count { _ = field.handle(.character(unit[index % unit.count])) }
      return field
    }
    let small = paste(10_000)
    let large = paste(20_000)
    // Steps are the field's only walk over the text: a bounded number per key means linear time,
    // where an offset walk from the start (the old design) would take n²/2 steps.
    #expect(small.steps <= 4 * 10_000)
    #expect(large.steps <= 4 * 20_000)
    #expect(large.text.unicodeScalars.count == 2 * small.text.unicodeScalars.count)
  }
}
