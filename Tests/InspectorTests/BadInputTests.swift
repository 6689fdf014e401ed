import Foundation
import Inspector
import Testing

@Suite("statestore-inspect: damaged and hostile logs, usage errors")
struct BadInputTests {
  @Test("A damaged log prints what came before the damage, then exits 1 naming the line")
  func damagedLine() throws {
    let harness = try InspectorHarness()
    let log = try harness.file(
      "damaged.jsonl", shopLog + #"{"seq":5,"type":"# + "\n" + #"{"seq":6,"type":"X"}"# + "\n")
    let summary = harness.run("--json", "--summary", log)
    #expect(summary.status == 1)
    #expect(summary.output.hasPrefix(#"{"entries":4,"#))
    #expect(summary.error.contains("damaged.jsonl: damaged at line 7: not JSON"))
    let timeline = harness.run(log)
    #expect(timeline.status == 1)
    #expect(timeline.output.split(separator: "\n").count == 5, "the checkpoint and 4 entries")
    let before = harness.run("--json", "--at", "3", log)
    #expect(before.status == 0, "the lines after entry 3 are not read")
    #expect(before.output == #"{"cart":["tea","milk"],"user":{"name":"bo"}}"# + "\n")
    let after = harness.run("--at", "6", log)
    #expect(after.status == 1)
    #expect(after.error.contains("no entry 6"))
    #expect(after.error.contains("before the damage"))
    #expect(after.error.contains("line 7"))
  }

  @Test("--at N reads from the last checkpoint before entry N: damage before it is not read")
  func stateFromTheLastCheckpoint() throws {
    let harness = try InspectorHarness()
    var text = #"{"format":"statestore-action-log","version":1,"state":"C"}"# + "\n"
    text += #"{"checkpoint":0,"state":{"n":0}}"# + "\n"
    for sequence in 1...8 {
      if sequence == 4 {
        text += #"{"seq":4,"type":"# + "\n"
        continue
      }
      text +=
        #"{"seq":\#(sequence),"type":"Inc","payload":{},"diff":[{"op":"replace","path":"/n","old":\#(sequence - 1),"value":\#(sequence)}]}"#
        + "\n"
      if sequence == 6 { text += #"{"checkpoint":6,"state":{"n":6}}"# + "\n" }
    }
    let log = try harness.file("early-damage.jsonl", text)
    let after = harness.run("--json", "--at", "8", log)
    #expect(after.status == 0, "\(after.error)")
    #expect(after.output == #"{"n":8}"# + "\n")
    #expect(harness.run("--json", "--at", "6", log).output == #"{"n":6}"# + "\n")
    let beforeDamage = harness.run("--json", "--at", "3", log)
    #expect(beforeDamage.status == 0)
    #expect(beforeDamage.output == #"{"n":3}"# + "\n")
    let acrossDamage = harness.run("--json", "--at", "5", log)
    #expect(acrossDamage.status == 1)
    #expect(acrossDamage.error.contains("no entry 5"))
    #expect(acrossDamage.error.contains("damaged at line 6: not JSON"))
    let summary = harness.run("--json", "--summary", log)
    #expect(summary.status == 1, "a question that reads the whole log still finds it")
  }

  @Test("A torn last line, a diff that does not fit, a bad header, an empty file: line named")
  func otherDamage() throws {
    let harness = try InspectorHarness()
    let cases: [(String, String)] = [
      (shopLog + #"{"seq":5,"ty"#, "line 7: the last line is incomplete"),
      (
        shopLog + #"{"seq":5,"type":"X","payload":{},"diff":[{"op":"remove","path":"/cart/7"}]}"#
          + "\n", "line 7: the diff does not fit the state before it: /cart/7: index 7"
      ),
      (#"{"format":"other"}"# + "\n", "line 1: not a valid header"),
      ("", "line 1: empty file"),
      (
        shopLog + #"{"seq":3,"type":"X","payload":{}}"# + "\n",
        "line 7: seq 3 does not follow seq 4"
      ),
      (shopLog + #"{"checkpoint":2,"state":{}}"# + "\n", "line 7: checkpoint 2 does not follow"),
    ]
    for (text, expected) in cases {
      let log = try harness.file("bad.jsonl", text)
      let result = harness.run("--summary", log)
      #expect(result.status == 1, "\(expected)")
      #expect(result.error.contains(expected), "\(result.error)")
    }
  }

  @Test("Control characters in a log cannot reach the terminal; deep nesting is damage")
  func hostile() throws {
    let harness = try InspectorHarness()
    let log = try harness.file(
      "hostile.jsonl",
      #"{"format":"statestore-action-log","version":1}"# + "\n"
        + #"{"seq":1,"type":"\u001b[2J\u009b31m","cause":"\u0007","payload":{"x":"\u001b]0;pwned\u0007"}}"#
        + "\n")
    for arguments in [[log], ["--summary", log], ["--json", log], ["--json", "--summary", log]] {
      let result = harness.run(arguments: arguments)
      #expect(result.status == 0)
      #expect(
        !result.output.unicodeScalars.contains {
          $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07
        })
      #expect(result.output.contains("1b"), "escaped, not dropped")
    }
    let deep = try harness.file(
      "deep.jsonl",
      #"{"format":"statestore-action-log","version":1}"# + "\n" + #"{"seq":1,"type":"X","payload":"#
        + String(repeating: "[", count: 100_000) + "}\n")
    let result = harness.run(deep)
    #expect(result.status == 1)
    #expect(result.error.contains("line 2: not JSON: nested deeper than 512 levels"))
  }

  @Test("Usage errors exit 2 with a clear message; --help prints the usage")
  func usage() throws {
    let harness = try InspectorHarness()
    let cases: [([String], String)] = [
      ([], "which log?"),
      (["--at", "x", "log"], "--at needs an entry's seq (0 or more), not 'x'"),
      (["--diff", "1", "log"], "--diff needs an entry's seq (0 or more), not 'log'"),
      (["--summary", "--at", "1", "log"], "ask one question at a time"),
      (["--follow", "--summary", "log"], "--follow shows the timeline"),
      (["--frobnicate", "log"], "unknown option '--frobnicate'"),
      (["a.jsonl", "b.jsonl"], "one log at a time"),
      (["--changes-of", "a..b", "log"], "is not a path"),
    ]
    for (arguments, expected) in cases {
      let result = harness.run(arguments: arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.error.contains(expected), "\(result.error)")
      #expect(result.output.isEmpty)
    }
    let help = harness.run("--help")
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("statestore-inspect: show a recorded StateStore session"))
    for option in [
      "--at N", "--diff A B", "--changes-of PATH", "--summary", "--html FILE", "--json", "--follow",
    ] {
      #expect(help.output.contains(option))
    }
    let missing = harness.run("/nonexistent/log.jsonl")
    #expect(missing.status == 1)
    #expect(missing.error.contains("cannot read /nonexistent/log.jsonl"))
  }
}
