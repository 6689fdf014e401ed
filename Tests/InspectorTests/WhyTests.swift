import Foundation
import Testing

/// `--why PATH --at N`: the chain from a change back to the user's action, with the line of
/// each step, as a recorder in diff mode writes it.
@Suite("statestore-inspect --why")
struct WhyTests {
  /// A tap adds an item (entry 1); a refresh effect, launched from a view, runs a nested
  /// load effect, which ticks the item (entry 2); a later tap renames it (entry 3).
  static let log = """
    {"format":"statestore-action-log","version":2,"state":"ShopState"}
    {"checkpoint":0,"state":{"items":[],"nextID":1}}
    {"seq":1,"type":"AddItem","site":"Shop/ShopView.swift:12","payload":{"name":"milk"},"diff":[{"op":"add","path":"/items[id=1]","index":0,"value":{"done":false,"id":1,"name":"milk"}},{"op":"replace","path":"/nextID","old":1,"value":2}]}
    {"seq":2,"type":"ToggleItem","cause":"Refresh › Load","causeSite":"Shop/Refresh.swift:20","causeParents":[{"name":"Refresh","site":"Shop/ShopView.swift:30"}],"site":"Shop/Load.swift:8","payload":{"id":1},"diff":[{"op":"replace","path":"/items[id=1]/done","old":false,"value":true}]}
    {"seq":3,"type":"RenameItem","site":"Shop/ShopView.swift:41","payload":{"id":1,"name":"oat milk"},"diff":[{"op":"replace","path":"/items[id=1]/name","old":"milk","value":"oat milk"}]}

    """

  @Test("--why names the entry that last changed the path and each step's file:line")
  func chain() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("why.jsonl", Self.log)
    let why = harness.run("--why", "/items[id=1]/done", "--at", "3", log)
    #expect(why.status == 0, "\(why.error)")
    #expect(
      why.output == """
        /items[id=1]/done was set to true by entry 2 (line 4)
          updater ToggleItem  at Shop/Load.swift:8
          dispatched by Refresh › Load  at Shop/Refresh.swift:20
          dispatched by Refresh  at Shop/ShopView.swift:30

        """)
    // Before entry 2, the value came from the tap that added the item.
    let before = harness.run("--at", "1", "--why", "items[id=1].done", log)
    #expect(
      before.output == """
        /items[id=1]/done was set to false by entry 1 (line 3)
          updater AddItem  at Shop/ShopView.swift:12

        """)
    let json = harness.run("--json", "--why", "/items[id=1]/done", log)
    #expect(
      json.output.contains(
        #""steps":[{"kind":"updater","name":"ToggleItem","site":"Shop/Load.swift:8"}"#))
    #expect(harness.run("--why", "/nothing", log).output == "no entry changed /nothing\n")
  }

  @Test("the timeline's JSON carries the sites a log has")
  func timelineJSON() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("why.jsonl", Self.log)
    let timeline = harness.run("--json", log)
    #expect(timeline.output.contains(#""causeSite":"Shop/Refresh.swift:20""#))
    #expect(timeline.output.contains(#""site":"Shop/Load.swift:8""#))
  }
}
