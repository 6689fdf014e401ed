import ActionLog
import Foundation
import Inspector
import TerminalKit
import Testing

@Suite("statestore-inspect's terminal interface: screens and keys")
struct BrowserTests {
  @Test("The timeline shows each entry's seq, time, scope, type and cause, from the first")
  func timeline() {
    var ui = BrowserHarness(log: shopLog)
    let lines = ui.lines()
    #expect(lines[0] == "shop.jsonl: 4 entries")
    #expect(lines[1].contains("seq") && lines[1].contains("type") && lines[1].contains("cause"))
    #expect(ui.line(containing: "  1  ")?.hasPrefix(">") == true, "the first entry is selected")
    let rename = ui.line(containing: "Rename") ?? ""
    #expect(rename.contains("2  00:01:41.500  account  Rename"))
    #expect(ui.line(containing: "   1  ")?.contains("AddItem     user: tap") == true)
    #expect(lines.last?.contains("? help") == true)
    ui.press(.character("j"), .down, .character("k"))
    #expect(ui.line(containing: "Rename")?.hasPrefix(">") == true)
    ui.press(.character("G"))
    #expect(ui.line(containing: "RemoveItem")?.hasPrefix(">") == true)
    ui.press(.home)
    #expect(ui.line(containing: "   1  ")?.hasPrefix(">") == true)
  }

  @Test(
    "The / prompt filters by type, scope, cause or any text, as it is typed",
    arguments: [
      ("type:additem", [1, 3]), ("scope:account", [2]), ("cause:tap", [1, 3]),
      ("milk", [3]), ("scope:- cause:-", [4]), ("type:add tea", [1]),
    ])
  func filter(text: String, expected: [Int]) {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.character("/"))
    ui.type(text)
    #expect(ui.lines()[14] == "/" + text)
    #expect(ui.frame().cursor == Frame.Position(row: 14, column: 1 + text.count))
    ui.press(.enter)
    let shown = ui.state.visible.compactMap { ui.session.entry($0)?.sequence }
    #expect(shown == expected)
    #expect(ui.lines()[14].contains("filter: \(text) (\(expected.count) of 4)"))
    ui.press(.escape)
    #expect(ui.state.visible.count == 4, "Escape on the timeline clears the filter")
  }

  @Test("Escape in the prompt clears the filter; a filter that keeps nothing says so")
  func filterCleared() {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.character("/"))
    ui.type("nothing-matches")
    #expect(ui.text().contains("No entry matches the filter."))
    ui.press(.escape)
    #expect(ui.state.visible.count == 4)
    #expect(ui.state.filterField == nil)
  }

  @Test("An entry shows its payload, its diff and the state after it")
  func detail() {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.down, .down, .enter)
    var lines = ui.lines()
    #expect(lines[0] == "shop.jsonl: 4 entries › entry 3")
    #expect(lines[1].hasPrefix("seq 3 · AddItem · cause user: tap · "))
    #expect(lines[2].contains("[payload]"))
    #expect(ui.text().contains(#""item": "milk""#))
    ui.press(.tab)
    #expect(ui.lines()[2].contains("[diff]"))
    #expect(ui.text().contains(#"> add /cart/1: "milk""#))
    ui.press(.character("s"))
    lines = ui.lines()
    #expect(lines[3] == "> ▾ cart: [2 items]")
    #expect(lines[4] == #"      [0]: "tea""#)
    #expect(lines[5] == #"      [1]: "milk""#)
    #expect(lines[6] == "  ▾ user: {1 key}")
    #expect(lines[7] == #"      name: "bo""#)
    ui.press(.character("p"))
    #expect(ui.lines()[2].contains("[payload]"))
    ui.press(.escape)
    #expect(ui.state.screens.isEmpty)
    #expect(ui.line(containing: "   3  ")?.hasPrefix(">") == true)
  }

  @Test("The state tree folds and unfolds; Left goes to the container")
  func folding() {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.end, .enter, .character("s"))
    #expect(ui.lines()[3] == "> ▾ cart: [1 item]")
    ui.press(.enter)
    #expect(ui.lines()[3] == #"> ▸ cart: ["milk"]"#)
    #expect(ui.lines()[4] == "  ▾ user: {1 key}")
    ui.press(.right)
    #expect(ui.lines()[3] == "> ▾ cart: [1 item]")
    ui.press(.down, .down, .down)
    #expect(ui.lines()[6] == #">     name: "bo""#)
    ui.press(.left)
    #expect(ui.lines()[5] == "> ▾ user: {1 key}")
    ui.press(.left)
    #expect(ui.lines()[5] == #"> ▸ user: {"name":"bo"}"#)
    ui.press(.space)
    #expect(ui.lines()[5] == "> ▾ user: {1 key}")
  }

  @Test("[ and ] step through the timeline's entries, keeping the section")
  func stepping() {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.enter, .character("d"), .character("]"))
    #expect(ui.lines()[1].hasPrefix("seq 2 · Rename"))
    #expect(ui.text().contains(#"replace /user/name: "ann" → "bo""#))
    ui.press(.character("["), .character("["))
    #expect(ui.lines()[1].hasPrefix("seq 1 · AddItem"))
    #expect(ui.state.screens.count == 1)
  }

  @Test("Marking an entry and pressing c on another compares the states after each")
  func comparison() {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.character("c"))
    #expect(ui.lines()[14] == "mark an entry with m first, then press c on another")
    ui.press(.character("m"))
    #expect(ui.lines()[2].hasPrefix(">*  1  "))
    ui.press(.end, .character("c"))
    let lines = ui.lines()
    #expect(lines[0] == "shop.jsonl: 4 entries › compare 1 → 4")
    #expect(lines[1] == "state after 1 → after 4: 2 changes")
    #expect(lines.contains(#"> replace /cart/0: "tea" → "milk""#))
    #expect(lines.contains(#"  replace /user/name: "ann" → "bo""#))
    ui.press(.character("q"))
    #expect(ui.state.screens.isEmpty)
    #expect(ui.lines()[14] == "marked: 1")
    ui.press(.home, .character("m"))
    #expect(ui.state.mark == nil, "m again unmarks")
  }

  @Test("h on a value lists the entries that changed it; Enter opens one")
  func pathHistory() {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.end, .enter, .character("s"), .down, .down, .down)
    ui.press(.character("h"))
    var lines = ui.lines()
    #expect(lines[0] == "shop.jsonl: 4 entries › entry 4 › history /user/name")
    #expect(lines[1] == "where /user/name changed: 1 change")
    #expect(lines[2] == #"> 2  account Rename: "ann" → "bo""#)
    ui.press(.enter)
    lines = ui.lines()
    #expect(lines[0] == "shop.jsonl: 4 entries › entry 4 › history /user/name › entry 2")
    #expect(lines[2].contains("[diff]"))
    ui.press(.escape, .escape)
    ui.press(.character("d"), .character("h"))
    lines = ui.lines()
    #expect(lines[1] == "where /cart/0 changed: 2 changes")
    #expect(lines[2] == #"> 1  AddItem: (none) → "tea""#)
    #expect(lines[3] == #"  4  RemoveItem: "tea" → "milk""#)
  }

  @Test("? lists every key of the screen in front; j/k scroll it; any other key closes it")
  func help() {
    let screens: [[Key]] = [
      [], [.enter], [.character("m"), .character("c")], [.enter, .character("d"), .character("h")],
    ]
    for keys in screens {
      var ui = BrowserHarness(log: shopLog, width: 100, height: 40)
      for key in keys { ui.press(key) }
      let before = ui.state.screens
      ui.press(.character("?"))
      let text = ui.text()
      for entry in BrowserView.helpEntries(for: ui.state) {
        #expect(text.contains(entry.keys), "\(entry.keys) is listed")
        #expect(text.contains(entry.action), "\(entry.action) is listed")
      }
      ui.press(.character("q"))
      #expect(ui.state.help == nil)
      #expect(ui.state.screens == before, "q closes the help and nothing else")
      #expect(ui.state.exitCode == nil)
    }
    var small = BrowserHarness(log: shopLog, width: 60, height: 8)
    small.press(.character("?"), .character("j"), .character("j"))
    #expect(small.text().contains("move up") == false, "scrolled past the first lines")
    #expect(small.text().contains("go to the first line"))
  }

  @Test("q on the timeline quits with status 0")
  func quit() {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.enter, .character("q"))
    #expect(ui.state.exitCode == nil)
    ui.press(.character("q"))
    #expect(ui.state.exitCode == 0)
  }

  @Test("Keys arrive through the decoder, escape sequences split across reads")
  func decodedKeys() {
    var ui = BrowserHarness(log: shopLog)
    ui.send(bytes: [0x1B, 0x5B])
    ui.send(bytes: [0x42])
    #expect(ui.line(containing: "Rename")?.hasPrefix(">") == true)
    ui.send(bytes: Array("/sc".utf8))
    ui.send(bytes: Array("ope:acc\r".utf8))
    #expect(ui.state.visible.count == 1)
  }
}
