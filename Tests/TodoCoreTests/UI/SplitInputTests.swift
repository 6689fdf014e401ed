import Foundation
import TerminalKit
import Testing

@testable import TodoCore

/// Awkward input through the key decoder, in separate reads, checked where it matters: in the
/// title the storage saved.
@MainActor
@Suite("Terminal UI: characters split across reads are saved whole")
struct SplitInputTests {
  private static func nfc(_ text: String) -> String { text.precomposedStringWithCanonicalMapping }

  /// Opens `add`, sends each chunk as one read, presses Enter and returns the saved title.
  private func savedTitle(reads: [[UInt8]]) async throws -> String? {
    let storage = InMemoryTodoStorage()
    let ui = try await TerminalUIHarness(storage: storage, width: 80, height: 16)
    await ui.send(bytes: Array("a".utf8))
    #expect(ui.route == ["list", "add"])
    for read in reads { await ui.send(bytes: read) }
    await ui.send(bytes: [0x0D])
    #expect(ui.route == ["list"])
    return try storage.load().todos.first?.title
  }

  @Test(
    "Pieces of one character in separate reads are saved as that character",
    arguments: [
      (["cafe", "\u{301}"], "café"),
      (["\u{1F1FA}", "\u{1F1F8}"], "🇺🇸"),
      (["thumbs 👍", "🏽"], "thumbs 👍🏽"),
      (["👨", "\u{200D}", "👩", "\u{200D}", "👧"], "👨‍👩‍👧"),
      (["ok ❤", "\u{FE0F}"], "ok ❤️"),
      (["\u{1100}", "\u{1161}", "\u{11A8}"], "각"),
    ] as [([String], String)])
  func piecesInSeparateReads(reads: [String], expected: String) async throws {
    let title = try #require(try await savedTitle(reads: reads.map { Array($0.utf8) }))
    #expect(Self.nfc(title) == Self.nfc(expected))
    #expect(title.count == expected.count)
  }

  @Test("The bytes of a character split at every point are saved whole")
  func everyByteSplit() async throws {
    let text = "Añ🇺🇸👍🏽 👨‍👩‍👧 e\u{301}漢"
    let bytes = Array(text.utf8)
    for split in 1..<bytes.count {
      let title = try await savedTitle(reads: [Array(bytes[..<split]), Array(bytes[split...])])
      #expect(title.map(Self.nfc) == Self.nfc(text), "split at byte \(split)")
    }
    let oneByteReads = try await savedTitle(reads: bytes.map { [$0] })
    #expect(oneByteReads.map(Self.nfc) == Self.nfc(text), "every byte its own read")
  }

  @Test("Editing an existing title: a combining accent in its own read is saved")
  func editWithAccent() async throws {
    let storage = storage(titles: ["cafe"])
    let ui = try await TerminalUIHarness(storage: storage, width: 80, height: 16)
    await ui.press(.enter, .character("e"))
    #expect(ui.route == ["list", "detail", "edit"])
    await ui.send(bytes: Array("\u{301}".utf8))
    await ui.send(bytes: Array("\u{1B}[D".utf8))
    await ui.send(bytes: Array("x".utf8))
    await ui.send(bytes: [0x0D])
    #expect(try storage.load().todos[id: 1]?.title == "cafxé")
  }

  @Test("A bracketed paste only ever types text: it cannot delete, quit or save on its own")
  func bracketedPaste() async throws {
    let storage = storage(titles: ["Keep me"])
    let ui = try await TerminalUIHarness(storage: storage, width: 80, height: 16)
    await ui.send(bytes: Array("\u{1B}[200~dyq\r\u{1B}[201~".utf8))
    #expect(ui.route == ["list"])
    #expect(ui.exitCode == nil)
    await ui.send(bytes: Array("a\u{1B}[200~line one\r\nline two\u{1B}[2".utf8))
    await ui.send(bytes: Array("01~".utf8))
    #expect(ui.route == ["list", "add"], "the pasted line break did not save")
    await ui.send(bytes: [0x0D])
    #expect(try storage.load().todos.map(\.title) == ["Keep me", "line one line two"])
  }

  @Test("A 10,000-character paste in 4 KiB reads split mid-character is saved exactly")
  func longPaste() async throws {
    let units = ["e\u{301}", "🇺🇸", "👍🏽", "👨‍👩‍👧", "漢", "a", " ", "ñ", "❤️", "b"]
    let text =
      String((0..<10_000).map { units[$0 % units.count] }.joined().dropLast())
      + "z"
    #expect(text.count == 10_000)
    let bytes = Array(text.utf8)
    let reads = stride(from: 0, to: bytes.count, by: 4096).map {
      Array(bytes[$0..<min($0 + 4096, bytes.count)])
    }
    #expect(reads.count > 2)
    // The 4 KiB boundaries fall inside characters, not between them.
    #expect(reads.dropLast().contains { String(decoding: $0, as: UTF8.self).contains("\u{FFFD}") })

    let storage = InMemoryTodoStorage()
    let ui = try await TerminalUIHarness(storage: storage, width: 80, height: 16)
    await ui.press(.character("a"))
    for read in reads { await ui.send(bytes: read) }
    let screen = try #require(ui.app.navigator.topmostRoutable as? TitleEntryScreen)
    #expect(screen.field.text.count == 10_000)
    // A bounded number of grapheme steps per character: the field keeps an index and never
    // walks from the start of the text, so the paste takes linear time.
    #expect(screen.field.steps <= 4 * 10_000)
    await ui.send(bytes: [0x0D])
    let saved = try #require(try storage.load().todos.first?.title)
    #expect(Self.nfc(saved) == Self.nfc(text))
    #expect(saved.count == 10_000)
  }
}
