import ActionLog
import Foundation
import Inspector
import TerminalKit
import Testing

/// A log whose text is every kind of Unicode a terminal lays out differently, and controls.
let unicodeLog = """
  {"format":"statestore-action-log","version":1,"state":"Notes"}
  {"checkpoint":0,"state":{"notes":[]}}
  {"seq":1,"scope":"日本語","type":"Add📝","cause":"e\\u0301te\\u0301","payload":{"title":"読む：吾輩は猫である"},"diff":[{"op":"add","path":"/notes/0","value":"読む：吾輩は猫である"}]}
  {"seq":2,"type":"AddFamily","cause":"👨‍👩‍👧 🇫🇷","payload":{"title":"👨‍👩‍👧‍👦 family 🇯🇵 ok"},"diff":[{"op":"add","path":"/notes/1","value":"👨‍👩‍👧‍👦 family 🇯🇵 ok"}]}
  {"seq":3,"type":"\\u001b[2JClear","cause":"\\u0007bell","payload":{"x":"\\u001b]0;pwned\\u0007","\\u009b":1},"diff":[{"op":"add","path":"/x\\u001b","value":"\\u001b[31m"}]}

  """

@Suite("statestore-inspect's terminal interface: any window size, any Unicode, live logs")
struct BrowserLayoutTests {
  /// Every screen the interface has, as the keys that open it from the timeline.
  static let screens: [[Key]] = [
    [], [.character("/"), .character("x")], [.enter], [.enter, .character("d")],
    [.enter, .character("s")], [.character("m"), .end, .character("c")],
    [.enter, .character("s"), .character("h")], [.character("?")],
  ]

  @Test("Every screen fits any window from 1×1 to 90×30: each row exactly the width")
  func everySize() {
    for keys in Self.screens {
      var ui = BrowserHarness(log: unicodeLog)
      for key in keys { ui.press(key) }
      for width in 1...90 {
        for height in 1...30 where width < 20 || height < 8 || (width + height) % 7 == 0 {
          ui.width = width
          ui.height = height
          let frame = ui.frame()
          #expect(frame.rows.count == height)
          for row in frame.rows where row.displayWidth != width {
            Issue.record("\(keys) at \(width)×\(height): '\(row)' is \(row.displayWidth) wide")
          }
          if let cursor = frame.cursor {
            #expect(cursor.row < height && cursor.column < width)
          }
        }
      }
    }
  }

  @Test("At 12×4 each screen still shows what matters")
  func smallest() {
    var ui = BrowserHarness(log: shopLog, width: 12, height: 4)
    var lines = ui.lines()
    #expect(lines.count == 4)
    #expect(lines[1].hasPrefix(">") && lines[1].contains("1"), "the selected entry: \(lines)")
    #expect(lines[3].hasPrefix("j/k move"))
    ui.press(.enter, .character("d"))
    lines = ui.lines()
    #expect(lines[1].hasPrefix("> add /cart"), "\(lines)")
    ui.press(.character("/"))
    ui.press(.escape, .escape, .character("/"))
    ui.type("type:Re")
    lines = ui.lines()
    #expect(lines[2] == "/type:Re")
    #expect(lines[1].contains("2"), "\(lines)")
  }

  @Test("Wide characters, combining marks, emoji sequences and flags are laid out whole")
  func unicode() {
    var ui = BrowserHarness(log: unicodeLog, width: 70, height: 16)
    let first = ui.line(containing: "Add📝") ?? ""
    #expect(first.contains("日本語"))
    #expect(
      first.contains("été".precomposedStringWithCanonicalMapping)
        || first.contains("e\u{301}te\u{301}"))
    let second = ui.line(containing: "AddFamily") ?? ""
    #expect(second.contains("👨‍👩‍👧 🇫🇷"))
    ui.press(.down, .enter, .character("s"))
    #expect(ui.text().contains(#"[1]: "👨‍👩‍👧‍👦 family 🇯🇵 ok""#))
    // Cut anywhere, a row never holds part of a grapheme cluster, and stays exactly the width.
    for width in 12...40 {
      ui.width = width
      for row in ui.frame().rows {
        #expect(row.displayWidth == width)
        for character in row where character.unicodeScalars.count > 1 {
          #expect(
            ["👨‍👩‍👧‍👦", "🇯🇵", "é", "e\u{301}", "👨‍👩‍👧", "🇫🇷"].contains(character),
            "\(character.unicodeScalars.map(\.value)) is whole")
        }
      }
    }
  }

  @Test("A hostile log cannot drive the terminal: no control character reaches a frame")
  func hostile() {
    for keys in Self.screens + [[.end, .enter], [.end, .enter, .character("d")]] {
      var ui = BrowserHarness(log: unicodeLog, width: 100, height: 20)
      for key in keys { ui.press(key) }
      let text = ui.text()
      let controls = text.unicodeScalars.filter {
        $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
      }
      #expect(controls.isEmpty, "\(keys): \(controls.map(\.value))")
    }
    var ui = BrowserHarness(log: unicodeLog, width: 100, height: 20)
    #expect(ui.text().contains(#"\u{1b}[2JClear"#))
  }

  @Test("A damaged log opens with the entries before the damage and says where it is")
  func damaged() {
    var ui = BrowserHarness(log: shopLog + "{\"seq\":5,\"type\":\n")
    let lines = ui.lines()
    #expect(lines[0] == "shop.jsonl: 4 entries")
    #expect(lines[14].hasPrefix("damaged at line 7: not JSON"))
  }

  @Test("A log recorded without diffs still shows its entries, and says what it lacks")
  func withoutDiffs() {
    let log = """
      {"format":"statestore-action-log","version":1,"state":"S"}
      {"seq":1,"type":"Tap","payload":{}}
      {"seq":2,"unrecorded":"Secret","reason":"not registered"}

      """
    var ui = BrowserHarness(log: log)
    #expect(ui.line(containing: "Secret (unrecorded)") != nil)
    ui.press(.enter, .character("d"))
    #expect(ui.text().contains("recorded without its diff"))
    ui.press(.character("s"))
    #expect(ui.text().contains("the log does not hold the state after this entry"))
    ui.press(.character("]"), .character("p"))
    #expect(ui.text().contains("not recorded: not registered"))
  }

  @Test("With --follow, entries appended to the file appear at the next look, whole lines only")
  @MainActor
  func follow() async throws {
    let harness = try InspectorHarness()
    let path = try harness.file("live.jsonl", shopLog)
    let app = try BrowserApplication(path: path, follow: true)
    #expect(app.frame(width: 80, height: 16).text.contains("4 entries, following"))
    #expect(await app.refresh() == false, "nothing new")
    for key in [Key.character("/")] + "type:checkout".map(Key.character) + [.enter] {
      await app.handle(key)
    }
    #expect(app.frame(width: 80, height: 16).text.contains("No entry matches the filter."))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    defer { try? handle.close() }
    handle.seekToEndOfFile()
    let line =
      #"{"seq":5,"type":"Checkout","payload":{},"diff":[{"op":"remove","path":"/cart/0","old":"milk"}]}"#
    handle.write(Data(line.prefix(20).utf8))
    #expect(await app.refresh() == false, "half a line waits for its newline")
    handle.write(Data((line.dropFirst(20) + "\n").utf8))
    #expect(await app.refresh())
    let text = app.frame(width: 80, height: 16).text
    #expect(text.contains("5 entries, following"))
    #expect(text.contains("filter: type:checkout (1 of 5)"), "a new entry that matches shows")
    let selected = text.split(separator: "\n").first { $0.contains("Checkout") }
    #expect(selected?.hasPrefix(">") == true, "the selection follows the newest entry")
    await app.handle(.enter)
    await app.handle(.character("s"))
    #expect(app.frame(width: 80, height: 16).text.contains("▾ cart: [0 items]"))
    handle.write(Data("not json\n".utf8))
    #expect(await app.refresh())
    #expect(app.frame(width: 80, height: 16).text.contains("damaged at line 8: not JSON"))
  }

  @Test("A large log shows its first screen after reading a chunk, and the rest between frames")
  @MainActor
  func largeLog() async throws {
    let entries = 200_000
    var log = #"{"format":"statestore-action-log","version":1,"state":"C"}"# + "\n"
    log.reserveCapacity(entries * 48)
    for sequence in 1...entries {
      log += #"{"seq":\#(sequence),"type":"Step","payload":{"n":\#(sequence)}}"# + "\n"
    }
    let harness = try InspectorHarness()
    let path = try harness.file("large.jsonl", log)
    let app = try BrowserApplication(path: path, follow: false)
    // Read into locals first, so that a failure does not print 200,000 entries.
    let (firstProgress, firstCount) = (app.session.progress, app.session.entryCount)
    guard let progress = firstProgress else {
      Issue.record("the log was read whole before the first frame")
      return
    }
    #expect(progress.bytesRead == LineIndex.chunkBytes)
    #expect(progress.fileSize == log.utf8.count)
    #expect(firstCount > 0 && firstCount < entries / 4)
    var text = app.frame(width: 80, height: 16).text
    #expect(text.contains("reading the log: \(progress.percent) %"))
    let selected = text.split(separator: "\n").first { $0.hasPrefix(">") }
    #expect(selected?.contains("1 ") == true, "the first entry is selected")

    var refreshes = 0
    while let before = app.session.progress, refreshes < 10 {
      #expect(await app.refresh())
      refreshes += 1
      let after = app.session.progress
      #expect(after.map { $0.bytesRead > before.bytesRead } ?? true)
    }
    let (lastProgress, lastCount) = (app.session.progress, app.session.entryCount)
    #expect(lastProgress == nil, "read whole")
    #expect(lastCount == entries)
    text = app.frame(width: 80, height: 16).text
    #expect(!text.contains("reading the log"))
    #expect(text.contains("200000 entries"))
    #expect(
      text.split(separator: "\n").first { $0.hasPrefix(">") } == selected,
      "the selection stays on the first entry")
    #expect(await app.refresh() == false, "nothing more to read")

    // Entries are read from the file when shown or filtered, and only a few kept decoded.
    #expect(app.session.decodedEntryCount <= 16, "the rows on screen")
    for key in [Key.character("/"), .character("S"), .enter] { await app.handle(key) }
    let (matching, decoded) = (app.state.visible.count, app.session.decodedEntryCount)
    #expect(matching == entries, "every entry was read again and matched")
    #expect(decoded > 16 && decoded <= SessionIndex.cachedEntryLimit)
    await app.handle(.character("G"))
    await app.handle(.enter)
    #expect(app.frame(width: 80, height: 16).text.contains(#""n": 200000"#))
  }

  @Test(
    "The interface opens for the timeline on a terminal; --plain, --json, a question or a pipe print"
  )
  func choosingTheInterface() throws {
    func opens(_ arguments: [String], terminal: Bool) throws -> Bool {
      try InspectArguments(arguments).opensTerminalInterface(onTerminal: terminal)
    }
    #expect(try opens(["log"], terminal: true))
    #expect(try opens(["--follow", "log"], terminal: true))
    #expect(try !opens(["log"], terminal: false))
    #expect(try !opens(["--plain", "log"], terminal: true))
    #expect(try !opens(["--json", "log"], terminal: true))
    #expect(try !opens(["--summary", "log"], terminal: true))
    #expect(try opens(["--tui", "log"], terminal: false))
    for arguments in [
      ["--tui", "--json", "log"], ["--tui", "--at", "1", "log"], ["--tui", "--plain", "log"],
    ] {
      #expect(throws: InspectArguments.UsageError.self) { try InspectArguments(arguments) }
    }
  }

  @Test("The state after any entry is found from the nearest kept state, in a long log")
  func statesInALongLog() {
    var log = #"{"format":"statestore-action-log","version":1,"state":"C"}"# + "\n"
    log += #"{"checkpoint":0,"state":{"n":0}}"# + "\n"
    for sequence in 1...300 {
      log +=
        #"{"seq":\#(sequence),"type":"Inc","payload":{},"diff":[{"op":"replace","path":"/n","old":\#(sequence - 1),"value":\#(sequence)}]}"#
        + "\n"
    }
    let session = SessionIndex.reading(log)
    for index in [0, 62, 63, 64, 65, 127, 128, 299] {
      #expect(
        session.state(afterEntry: index) == .object(JSONObject([("n", .number(String(index + 1)))]))
      )
    }
    #expect(session.entryIndex(sequence: 200) == 199)
    #expect(session.initialState == .object(JSONObject([("n", .number("0"))])))
  }
}
