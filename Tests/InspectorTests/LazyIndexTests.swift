import ActionLog
import Foundation
import Inspector
import Testing

/// The terminal interface indexes a log's lines and decodes an entry only when it needs it.
@Suite("statestore-inspect's terminal interface: entries decoded when needed")
struct LazyIndexTests {
  /// A counter log of `entries` entries, each adding 1 to `/n` with its diff.
  ///
  /// Entry `seq` N is on line N + 2, after checkpoint 0; `line(seq)` may replace its line.
  static func counterLog(
    entries: Int, replacing line: (Int) -> String? = { _ in nil }
  ) -> String {
    var log = #"{"format":"statestore-action-log","version":1,"state":"C"}"# + "\n"
    log += #"{"checkpoint":0,"state":{"n":0}}"# + "\n"
    for sequence in 1...entries {
      log +=
        line(sequence)
        ?? #"{"seq":\#(sequence),"type":"Inc","payload":{},"diff":[{"op":"replace","path":"/n","old":\#(sequence - 1),"value":\#(sequence)}]}"#
      log += "\n"
    }
    return log
  }

  @Test("Reading a log whole decodes no entry; the first screen decodes the rows it shows")
  func readingDecodesNothing() {
    let session = SessionIndex.reading(Self.counterLog(entries: 1000))
    #expect(session.entryCount == 1000)
    #expect(session.decodedEntryCount == 0)
    var ui = BrowserHarness(log: Self.counterLog(entries: 1000), width: 80, height: 16)
    _ = ui.frame()
    #expect(ui.session.decodedEntryCount > 0 && ui.session.decodedEntryCount <= 16)
  }

  @Test("Damage in an entry's line is named when the line is shown; the log ends before it")
  func damagedEntryFoundWhenShown() {
    let log = Self.counterLog(entries: 40) { $0 == 30 ? #"{"seq":30,"type":"# : nil }
    var ui = BrowserHarness(log: log, width: 80, height: 16)
    var text = ui.text()
    #expect(text.hasPrefix("shop.jsonl: 40 entries"), "the line is not read yet")
    #expect(!text.contains("damaged"))
    ui.press(.character("G"))
    text = ui.text()
    #expect(text.hasPrefix("shop.jsonl: 29 entries"))
    #expect(text.contains("damaged at line 32: not JSON"))
    #expect(ui.line(containing: "  29  ")?.hasPrefix(">") == true, "the last entry before it")
    #expect(ui.line(containing: "  31  ") == nil)
  }

  @Test("A diff that does not fit is found when a state after it is asked for")
  func misfitDiffFoundWhenAStateIsRead() {
    let log = Self.counterLog(entries: 30) {
      $0 == 20
        ? #"{"seq":20,"type":"Inc","payload":{},"diff":[{"op":"remove","path":"/gone","old":1}]}"#
        : nil
    }
    var ui = BrowserHarness(log: log, width: 80, height: 16)
    for _ in 0..<24 { ui.press(.character("j")) }
    ui.press(.enter, .character("s"))
    let text = ui.text()
    #expect(text.contains("damaged at line 22: the diff does not fit"), "\(text)")
    #expect(text.hasPrefix("shop.jsonl: 19 entries"), "the entry's screen closed")
    #expect(ui.line(containing: "  19  ")?.hasPrefix(">") == true)
  }

  @Test("Entries out of order are found when the states across them are read")
  func disorderFoundWhenAStateIsRead() {
    let log = Self.counterLog(entries: 10) {
      $0 == 6 ? #"{"seq":4,"type":"Inc","payload":{},"diff":[]}"# : nil
    }
    let session = SessionIndex.reading(log)
    #expect(session.entryCount == 10)
    #expect(session.state(afterEntry: 4) == .object(JSONObject([("n", .number("5"))])))
    #expect(session.state(afterEntry: 7) == nil)
    #expect(session.damage?.description.hasPrefix("line 8: seq 4 does not follow seq 5") == true)
    #expect(session.entryCount == 5)
  }
}
