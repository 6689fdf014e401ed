import Foundation
import Testing

@Suite("todo-cli --record and replay")
struct RecordReplayTests {
  /// The fixture recorded from a real run of todo-cli.
  static let fixture = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("ActionLogTests/Fixtures/todo-session.jsonl").path

  @Test("Recording several invocations into one file and replaying it gives list --json exactly")
  func recordThenReplay() throws {
    let cli = try CLIHarness()
    let log = cli.directory.appendingPathComponent("session.jsonl").path
    let commands: [[String]] = [
      ["add", "Buy milk"], ["add", "Call mom 📞"], ["add", "שלום"], ["done", "1"],
      ["list"], ["edit", "2", "Call dad"], ["remove", "3"], ["undo"], ["done", "3"], ["clear"],
      ["undo"], ["add", "after"], ["reopen", "1"], ["history"],
    ]
    for command in commands {
      let result = try cli.run(arguments: ["--store", cli.store, "--record", log] + command)
      #expect(result.status == 0, "\(command): \(result.error)")
    }
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    // Diff mode: version 2, whose diffs name a todo by its id.
    #expect(lines.first?.contains(#""format":"statestore-action-log","version":2"#) == true)
    let entries = lines.filter { $0.hasPrefix(#"{"seq":"#) }
    #expect(entries.count == 12, "one line per change")
    #expect(entries.allSatisfy { $0.contains(#""diff":["#) }, "recorded in diff mode")
    let listed = try cli.run("list", "--json")
    let replayed = try cli.run(arguments: ["replay", log, "--json"])
    #expect(replayed.status == 0, "\(replayed.error)")
    #expect(replayed.output == listed.output)
    #expect(try cli.run(arguments: ["replay", log]).output == cli.run("list").output)
  }

  @Test("The fixture recorded from a real run replays to the list it ended with")
  func fixture() throws {
    let cli = try CLIHarness()
    let result = try cli.run(arguments: ["replay", Self.fixture])
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output == """
        1 [x] Buy milk
        2 [x] Call mom 📞
        3 [ ] שלום עולם
        4 [ ] Write the quarterly report
        5 [ ] -20% on shoes

        """)
  }

  @Test("A bad log fails with exit 1 naming the file and line; a missing one names the file")
  func badLogs() throws {
    let cli = try CLIHarness()
    let log = cli.directory.appendingPathComponent("bad.jsonl")
    try Data(
      """
      {"format":"statestore-action-log","version":1}
      {"seq":1,"type":"AddTodo","payload":{"title":"fine"}}
      {"seq":2,"type":"Teleport","payload":{}}

      """.utf8
    ).write(to: log)
    let unknown = try cli.run(arguments: ["replay", log.path])
    #expect(unknown.status == 1)
    #expect(unknown.error.contains("bad.jsonl"))
    #expect(unknown.error.contains("line 3"))
    #expect(unknown.error.contains("Teleport"))
    let missing = try cli.run(arguments: ["replay", log.path + ".missing"])
    #expect(missing.status == 1)
    #expect(missing.error.contains("bad.jsonl.missing"))
  }

  @Test("--record into a file that is not an action log fails and leaves it untouched")
  func recordIntoForeignFile() throws {
    let cli = try CLIHarness()
    let file = cli.directory.appendingPathComponent("notes.txt")
    try Data("my notes\n".utf8).write(to: file)
    let result = try cli.run("--record", file.path, "add", "x")
    #expect(result.status == 1)
    #expect(try Data(contentsOf: file) == Data("my notes\n".utf8))
    #expect(try cli.todos().isEmpty)
  }
}
