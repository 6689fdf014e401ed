import TerminalKit
import Testing

@Suite("Display width and truncation")
struct DisplayWidthTests {
  @Test(
    "Widths by grapheme cluster",
    arguments: [
      ("abc", 3), ("", 0), ("漢字", 4), ("ｈｉ", 4), ("한국어", 6), ("こんにちは", 10),
      ("🙂", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇮🇹", 2), ("❤️", 2), ("1️⃣", 2), ("☺", 1),
      ("é", 1), ("e\u{301}", 1), ("a\u{200D}b", 2), ("שלום", 4), ("مرحبا", 5),
    ] as [(String, Int)])
  func widths(text: String, expected: Int) {
    #expect(text.displayWidth == expected)
  }

  @Test("Short text is left alone; long text ends in an ellipsis within the limit")
  func truncation() {
    #expect("Buy milk".truncated(toWidth: 8) == "Buy milk")
    #expect("Buy milk".truncated(toWidth: 7) == "Buy mi…")
    #expect("Buy milk".truncated(toWidth: 1) == "…")
    #expect("Buy milk".truncated(toWidth: 0) == "")
  }

  @Test("Truncation never splits or overflows a wide character")
  func wideTruncation() {
    let cut = "漢字漢字".truncated(toWidth: 6)
    #expect(cut == "漢字…")
    #expect(cut.displayWidth == 5)
    #expect("漢字漢字".fitted(toWidth: 6) == "漢字… ")
    #expect("🙂🙂🙂".truncated(toWidth: 4) == "🙂…")
    #expect("👨‍👩‍👧👨‍👩‍👧".truncated(toWidth: 3) == "👨‍👩‍👧…")
    #expect("e\u{301}e\u{301}e\u{301}".truncated(toWidth: 2) == "e\u{301}…")
  }

  @Test("Every prefix width keeps the result within the limit", arguments: 0...12)
  func neverOverflows(width: Int) {
    for text in ["漢a字🙂b👨‍👩‍👧c", "ｈｅｌｌｏ world", "🇮🇹🇫🇷🇩🇪🇪🇸🇯🇵"] {
      #expect(text.truncated(toWidth: width).displayWidth <= width)
      #expect(text.fitted(toWidth: width).displayWidth == width)
    }
  }

  @Test("A column range blanks the halves of wide characters it cuts")
  func columnRange() {
    #expect("a漢字b".columns(0..<2) == "a ")
    #expect("a漢字b".columns(2..<5) == " 字")
    #expect("ab".columns(1..<4) == "b  ")
  }

  @Test("Control characters in text cannot reach the terminal")
  func sanitizing() {
    #expect(TerminalSafeText.pictured("a\u{1B}[2Jb\n") == "a␛[2Jb␊")
    #expect(TerminalSafeText.pictured("\u{0}\u{7F}\u{9B}") == "␀␡\u{FFFD}")
    #expect(TerminalSafeText.pictured("\u{1B}\u{7F}\u{9B}").displayWidth == 3)
    #expect(TerminalSafeText.pictured("plain 漢字") == "plain 漢字")
  }
}

@Suite("Wrapping")
struct WrappingTests {
  @Test("Wrapping breaks after spaces and never exceeds the width")
  func wrapping() {
    #expect("Buy milk and eggs".wrapped(toWidth: 9) == ["Buy milk", "and eggs"])
    #expect("abcdefghij".wrapped(toWidth: 4) == ["abcd", "efgh", "ij"])
    #expect("漢字漢字漢".wrapped(toWidth: 5) == ["漢字", "漢字", "漢"])
    #expect("".wrapped(toWidth: 5) == [""])
    for line in "🙂 family 👨‍👩‍👧 and 漢字 text".wrapped(toWidth: 7) {
      #expect(line.displayWidth <= 7)
    }
  }
}
