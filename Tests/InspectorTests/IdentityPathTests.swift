import ActionLog
import Foundation
import Inspector
import TerminalKit
import Testing

/// One session (add milk, eggs and bread, tick eggs, sort by name, untick eggs, remove milk,
/// rename bread) recorded in diff mode by both versions of the format.
enum ShopFixtures {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("ActionLogTests/Fixtures")

  /// Version 1, as earlier releases recorded it: every change named by position.
  static let version1 = directory.appendingPathComponent("shop-diffs-v1.jsonl").path
  /// Version 2: items named by their id, the sort as moves.
  static let version2 = directory.appendingPathComponent("shop-diffs-v2.jsonl").path
}

@Suite("statestore-inspect follows an element by its id, in logs of both format versions")
struct IdentityPathTests {
  @Test(
    "--changes-of /items[id=2]/done follows the item across the sort and the removal, in both",
    arguments: [ShopFixtures.version1, ShopFixtures.version2])
  func changesOfFollowsTheID(log: String) throws {
    let harness = try InspectorHarness()
    let done = harness.run("--changes-of", "/items[id=2]/done", log)
    #expect(done.status == 0, "\(done.error)")
    #expect(
      done.output == """
        seq 2 (line 4) AddItem: (none) → false
        seq 4 (line 6) ToggleItem: false → true
        seq 6 (line 8) ToggleItem: true → false

        """)
    // The dotted spelling, and an item that is removed: its history ends there.
    let milk = harness.run("--changes-of", "items[id=1].name", log)
    #expect(
      milk.output == """
        seq 1 (line 3) AddItem: (none) → "milk"
        seq 7 (line 9) RemoveItem: "milk" → (none)

        """)
    let json = harness.run("--json", "--changes-of", "items[id=3]", log)
    #expect(json.output.hasPrefix(#"{"path":"/items[id=3]","changes":[{"seq":3,"#))
    #expect(json.output.contains(#""seq":8"#) && !json.output.contains(#""seq":5"#))
    // By position, the sort is a change of the first place: the difference ids make.
    #expect(harness.run("--changes-of", "/items/0/name", log).output.contains("seq 5 (line 7)"))
  }

  @Test("Both versions give the same state after every entry")
  func sameStates() throws {
    let harness = try InspectorHarness()
    for sequence in 0...8 {
      let first = harness.run("--json", "--at", String(sequence), ShopFixtures.version1)
      let second = harness.run("--json", "--at", String(sequence), ShopFixtures.version2)
      #expect(first.status == 0 && second.status == 0, "\(first.error) \(second.error)")
      #expect(first.output == second.output, "after entry \(sequence)")
    }
    #expect(
      harness.run("--json", "--at", "8", ShopFixtures.version2).output.contains(
        #"{"done":false,"id":3,"name":"rye bread"},{"done":false,"id":2,"name":"eggs"}"#))
  }

  @Test("The timeline, --diff and --json name items by id and show the sort as moves")
  func pathsInEveryOutput() throws {
    let harness = try InspectorHarness()
    let log = ShopFixtures.version2
    let timeline = harness.run("--plain", log).output
    #expect(timeline.contains("SortItems  -  changed /items[id=3] /items[id=2]\n"))
    #expect(timeline.contains("ToggleItem  -  changed /items[id=2]/done\n"))
    let diff = harness.run("--diff", "4", "5", log)
    #expect(
      diff.output == """
        move /items[id=3] from 2 to 0
        move /items[id=2] from 2 to 1

        """)
    let json = harness.run("--json", "--diff", "6", "7", log).output
    #expect(
      json.contains(
        #"{"op":"remove","path":"/items[id=1]","index":2,"old":{"done":false,"id":1,"name":"milk"}}"#
      ))
    let lines = harness.run("--json", log).output.split(separator: "\n")
    #expect(
      lines.contains { $0.contains(#"{"op":"move","path":"/items[id=3]","from":2,"index":0}"#) })
  }

  @Test("The interface labels items by id, and h on an item's field follows it by id")
  func terminalInterface() throws {
    var ui = BrowserHarness(
      log: try String(contentsOfFile: ShopFixtures.version2, encoding: .utf8), width: 100,
      height: 30)
    // The sort, seq 5: its diff, then the state after it.
    ui.press(.down, .down, .down, .down, .enter)
    ui.press(.character("d"))
    #expect(ui.line(containing: "move /items[id=3] from 2 to 0") != nil, "\(ui.text())")
    ui.press(.character("s"))
    #expect(ui.line(containing: "[id=3]: {") != nil, "\(ui.text())")
    #expect(ui.line(containing: "[id=2]: {") != nil)
    // The row of eggs' `done`, then its history: by id, so the sort is not in it.
    let rows = ui.lines()
    let eggs = try #require(rows.firstIndex { $0.contains("[id=2]: {") })
    let done = try #require(rows[eggs...].firstIndex { $0.contains("done:") })
    // The first row, selected: the list itself.
    let selected = try #require(rows.firstIndex { $0.contains("items: [3 items]") })
    for _ in 0..<(done - selected) { ui.press(.down) }
    ui.press(.character("h"))
    #expect(ui.text().contains("history /items[id=2]/done"), "\(ui.text())")
    #expect(ui.line(containing: "4  ToggleItem: false → true") != nil, "\(ui.text())")
    #expect(ui.line(containing: "6  ToggleItem: true → false") != nil)
    #expect(ui.line(containing: "SortItems") == nil)
  }
}
