import TerminalKit
import Testing

@Suite("Key decoding")
struct KeyDecoderTests {
  private func decode(_ chunks: [UInt8]...) -> [Key] {
    var decoder = KeyDecoder()
    return chunks.flatMap { decoder.decode($0) }
  }

  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test("ASCII letters and space decode as characters")
  func ascii() {
    #expect(decode(bytes("jk a")) == [.character("j"), .character("k"), .space, .character("a")])
  }

  @Test("Multi-byte UTF-8 decodes as whole grapheme clusters, even emoji sequences")
  func multiByte() {
    let family = "👨‍👩‍👧"
    #expect(
      decode(bytes("é漢\(family)👍🏽")) == [
        .character("é"), .character("漢"), .character(Character(family)), .character("👍🏽"),
      ])
  }

  @Test("A UTF-8 character split across two reads is completed by the second read")
  func splitCharacter() {
    let emoji = bytes("🙂")
    #expect(decode(Array(emoji[0..<2]), Array(emoji[2...])) == [.character("🙂")])
  }

  @Test("Invalid UTF-8 becomes a replacement character instead of stopping the decoder")
  func invalidUTF8() {
    #expect(
      decode([0xFF, 0x61, 0xC3, 0x28]) == [
        .character("\u{FFFD}"), .character("a"), .character("\u{FFFD}"), .character("("),
      ])
  }

  @Test("Enter, Backspace, Tab and Ctrl-C are recognised; CRLF is one Enter")
  func controls() {
    #expect(
      decode([0x0D, 0x0A, 0x0D, 0x7F, 0x08, 0x09, 0x03, 0x04]) == [
        .enter, .enter, .backspace, .backspace, .tab, .interrupt, .control(0x04),
      ])
  }

  @Test("An ESC at the end of a read is the Escape key")
  func loneEscape() {
    #expect(decode([0x1B]) == [.escape])
    #expect(decode([0x1B], [0x1B]) == [.escape, .escape])
  }

  @Test("ESC followed by an ordinary key in the same read gives Escape and then that key")
  func escapeThenKey() {
    #expect(decode(bytes("\u{1B}q")) == [.escape, .character("q")])
    #expect(decode([0x1B, 0x1B, 0x5B, 0x41]) == [.escape, .up])
  }

  @Test("CSI and SS3 arrow keys, with or without modifiers")
  func arrows() {
    #expect(decode(bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D")) == [.up, .down, .right, .left])
    #expect(decode(bytes("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD")) == [.up, .down, .right, .left])
    #expect(decode(bytes("\u{1B}[1;5A")) == [.up])
  }

  @Test("Home, End and Delete in their common encodings; unknown sequences are ignored")
  func editingKeys() {
    #expect(
      decode(bytes("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[3~")) == [
        .home, .end, .home, .end, .delete,
      ])
    #expect(decode(bytes("\u{1B}[15~x")) == [.unsupported, .character("x")])
  }

  @Test("A sequence cut by the end of a read waits for the rest")
  func splitSequence() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B, 0x5B]).isEmpty)
    #expect(decoder.hasPendingBytes)
    #expect(decoder.decode([0x42]) == [.down])
    #expect(!decoder.hasPendingBytes)
  }

  @Test("Pieces of one character in separate reads come out as the pieces, for the field to join")
  func piecesAcrossReads() {
    #expect(decode(bytes("cafe"), bytes("\u{301}")).last == .character("\u{301}"))
    let flag = bytes("🇺🇸")
    #expect(decode(Array(flag[0..<4]), Array(flag[4...])) == [.character("🇺"), .character("🇸")])
    // Within one read the decoder already joins them.
    #expect(decode(bytes("e\u{301}🇺🇸")) == [.character("é"), .character("🇺🇸")])
  }

  @Test("An ESC [ followed by a long run of parameter bytes is text, not a sequence to wait for")
  func overlongSequence() {
    var decoder = KeyDecoder()
    let digits = String(repeating: "1", count: 40)
    let keys = decoder.decode(bytes("\u{1B}[" + digits))
    #expect(!decoder.hasPendingBytes)
    #expect(keys.first == .escape)
    #expect(keys.count == 42)
  }

  @Test("A bracketed paste is pasted text: line breaks become spaces, controls are dropped")
  func bracketedPaste() {
    #expect(
      decode(bytes("\u{1B}[200~ab\r\nc\u{1B}\u{01}\td\u{1B}[201~x")) == [
        .pasted("a"), .pasted("b"), .pasted(" "), .pasted("c"), .pasted(" "), .pasted("d"),
        .character("x"),
      ])
    #expect(
      decode(bytes("\u{1B}[200~a\u{1B}[2"), bytes("01~q")) == [.pasted("a"), .character("q")],
      "the end mark split across reads")
    #expect(
      decode(bytes("\u{1B}[200~e"), bytes("\u{301}\u{1B}[201~")) == [
        .pasted("e"), .pasted("\u{301}"),
      ])
    #expect(decode(bytes("\u{1B}[200~a\u{03}")) == [.pasted("a"), .interrupt])
  }

  @Test("A malformed CSI gives Escape and decodes the rest as keys")
  func malformedSequence() {
    #expect(decode([0x1B, 0x5B, 0x0D]) == [.escape, .character("["), .enter])
  }
}
