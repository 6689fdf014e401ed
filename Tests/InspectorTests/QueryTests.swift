import ActionLog
import Foundation
import Inspector
import Testing

@Suite("statestore-inspect: --json queries on hand-written logs")
struct QueryTests {
  @Test("--at N gives the state after entry N, rebuilt from the checkpoint and the diffs")
  func stateAt() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    #expect(
      harness.run("--json", "--at", "0", log).output == #"{"cart":[],"user":{"name":"ann"}}"# + "\n"
    )
    #expect(
      harness.run("--json", "--at", "2", log).output == #"{"cart":["tea"],"user":{"name":"bo"}}"#
        + "\n")
    #expect(
      harness.run("--at", "4", "--json", log).output == #"{"cart":["milk"],"user":{"name":"bo"}}"#
        + "\n")
    let text = harness.run("--at", "1", log)
    #expect(text.status == 0)
    #expect(
      text.output
        == "{\n  \"cart\": [\n    \"tea\"\n  ],\n  \"user\": {\n    \"name\": \"ann\"\n  }\n}\n")
    let missing = harness.run("--at", "9", log)
    #expect(missing.status == 1)
    #expect(missing.output.isEmpty)
    #expect(missing.error.contains("no entry 9 (its entries run from 1 to 4)"))
  }

  @Test("--diff A B compares the states after two entries")
  func diff() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    #expect(
      harness.run("--json", "--diff", "1", "4", log).output
        == #"{"from":1,"to":4,"diff":[{"op":"replace","path":"/cart/0","old":"tea","value":"milk"},"#
        + #"{"op":"replace","path":"/user/name","old":"ann","value":"bo"}]}"# + "\n")
    #expect(
      harness.run("--diff", "0", "1", log).output == #"add /cart/0: "tea""# + "\n")
    #expect(harness.run("--diff", "3", "3", log).output == "no difference\n")
  }

  @Test("--diff A B reads from the checkpoint before A to B and answers as the whole log does")
  func diffFromTheLastCheckpoint() throws {
    let harness = try InspectorHarness()
    // Checkpoints before entry 1 and after entry 6; entry 3 has no diff, so the states from
    // it to 5 are not in the log.
    var text = #"{"format":"statestore-action-log","version":1,"state":"C"}"# + "\n"
    text += #"{"checkpoint":0,"state":{"n":0,"k":"a"}}"# + "\n"
    for sequence in 1...9 {
      text +=
        sequence == 3
        ? #"{"seq":3,"type":"Other","payload":{}}"#
        : #"{"seq":\#(sequence),"type":"Inc","payload":{},"diff":[{"op":"replace","path":"/n","old":\#(sequence - 1),"value":\#(sequence)}]}"#
      text += "\n"
      if sequence == 6 { text += #"{"checkpoint":6,"state":{"n":6,"k":"b"}}"# + "\n" }
    }
    let damaged = #"{"seq":10,"type":"# + "\n"
    for (name, contents) in [("clean.jsonl", text), ("damaged-after.jsonl", text + damaged)] {
      let log = try harness.file(name, contents)
      let whole = StateLookup(Set(0...9), in: Data(contents.utf8))
      for from in 0...9 {
        for to in 0...9 {
          let answer = harness.run("--json", "--diff", String(from), String(to), log)
          guard let old = try? whole.state(after: from), let new = try? whole.state(after: to)
          else {
            #expect(answer.status == 1, "\(name) \(from) \(to)")
            #expect(answer.output.isEmpty)
            #expect(answer.error.contains("does not hold the state after entry"))
            continue
          }
          let expected = JSONObject([
            ("from", .number(String(from))), ("to", .number(String(to))),
            ("diff", JSONChange.json(JSONChange.changes(from: old, to: new))),
          ])
          #expect(
            answer.output == JSONValue.object(expected).text() + "\n", "\(name) \(from) \(to)")
          // The damage after entry 9 is never read: the lines after B are not.
          #expect(answer.status == 0, "\(name) \(from) \(to): \(answer.error)")
        }
      }
    }
    #expect(
      harness.run("--diff", "6", "8", try harness.file("clean.jsonl", text)).output
        == "replace /n: 6 → 8\n")
    // Damage before the checkpoint before A is not read either; damage between A and B is.
    let early = text.replacingOccurrences(
      of: #"{"seq":2,"type":"Inc""#, with: #"{"seq":2,"type":"#)
    let earlyLog = try harness.file("early.jsonl", early)
    let past = harness.run("--json", "--diff", "7", "9", earlyLog)
    #expect(past.status == 0, "\(past.error)")
    #expect(
      past.output == #"{"from":7,"to":9,"diff":[{"op":"replace","path":"/n","old":7,"value":9}]}"#
        + "\n")
    let across = harness.run("--json", "--diff", "1", "7", earlyLog)
    #expect(across.status == 1)
    #expect(across.error.contains("damaged at line 4: not JSON"))
  }

  @Test("--changes-of PATH lists the entries that changed it, pointer or dotted")
  func changesOf() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    #expect(
      harness.run("--json", "--changes-of", "/user/name", log).output
        == #"{"path":"/user/name","changes":[{"seq":2,"line":4,"type":"Rename","scope":"account","#
        + #""time":101.500,"old":"ann","new":"bo"}],"entriesWithoutState":0}"# + "\n")
    let cart = harness.run("--changes-of", "cart[0]", log)
    #expect(
      cart.output == """
        seq 1 (line 3) AddItem: (none) → "tea"
        seq 4 (line 6) RemoveItem: "tea" → "milk"

        """)
    #expect(harness.run("--changes-of", "cart.1", log).output.hasPrefix("seq 3 (line 5) AddItem"))
  }

  @Test("--summary counts by type, scope and cause, with the time span and the slowest gaps")
  func summary() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    let result = harness.run("--summary", "--json", log)
    #expect(result.status == 0)
    #expect(
      result.output
        == #"{"entries":4,"unrecorded":0,"entriesWithDiff":4,"checkpoints":1,"firstSeq":1,"#
        + #""lastSeq":4,"types":{"AddItem":2,"RemoveItem":1,"Rename":1},"#
        + #""scopes":{"":3,"account":1},"causes":{"":2,"user: tap":2},"#
        + #""timeSpan":{"first":100.000,"last":110.250,"seconds":10.250},"#
        + #""slowestGaps":[{"after":2,"before":3,"seconds":8.500},"#
        + #"{"after":1,"before":2,"seconds":1.500},{"after":3,"before":4,"seconds":0.250}]}"#
        + "\n")
  }

  @Test("The timeline lists every entry and checkpoint, one JSON object per line with --json")
  func timeline() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    let lines = harness.run("--json", log).output.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[0] == #"{"checkpoint":0,"line":2}"#)
    #expect(
      lines[2]
        == #"{"seq":2,"line":4,"type":"Rename","scope":"account","time":101.500,"#
        + #""payload":{"name":"bo"},"diff":[{"op":"replace","path":"/user/name","old":"ann","#
        + #""value":"bo"}]}"#)
    let text = harness.run(log).output.split(separator: "\n")
    #expect(
      text[2]
        == "2  1970-01-01T00:01:41.500Z  account  Rename  -  changed /user/name")
  }

  @Test("A log recorded without diffs shows its entries and the state at its checkpoints only")
  func withoutDiffs() throws {
    let harness = try InspectorHarness()
    let log = try harness.file(
      "plain.jsonl",
      """
      {"format":"statestore-action-log","version":1}
      {"checkpoint":0,"state":{"n":0}}
      {"seq":1,"type":"Bump","payload":{}}
      {"seq":2,"type":"Bump","payload":{}}
      {"checkpoint":2,"state":{"n":2}}

      """)
    #expect(harness.run("--json", "--at", "2", log).output == #"{"n":2}"# + "\n")
    let unknown = harness.run("--at", "1", log)
    #expect(unknown.status == 1)
    #expect(unknown.error.contains("recorded without diffs"))
    #expect(unknown.error.contains("checkpoints hold the state after entries 0, 2"))
    #expect(
      harness.run("--json", "--changes-of", "/n", log).output.contains(#""entriesWithoutState":2"#))
    #expect(harness.run(log).output.contains("2  -  -  Bump  -\n"))
  }
}
