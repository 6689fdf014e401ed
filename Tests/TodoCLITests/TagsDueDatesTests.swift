import Foundation
import Testing

/// A todo as `list --json` prints it, with tags, due date and priority.
struct JSONDetailedTodo: Decodable, Equatable {
  var id: Int
  var title: String
  var done: Bool
  var tags: [String]
  var due: String?
  var priority: String?
}

/// One `history --json` object.
struct JSONHistoryEntry: Decodable, Equatable {
  var seq: Int
  var change: String
  var time: String?
}

extension CLIHarness {
  /// The environment of a run at `now` (ISO 8601) in the time zone `zone`.
  static func clock(_ now: String, zone: String = "UTC") -> [String: String] {
    var variables = ProcessInfo.processInfo.environment
    variables["TODO_CLI_NOW"] = now
    variables["TZ"] = zone
    return variables
  }

  /// Runs `todo-cli --store <store> <arguments>` at 2026-03-10 12:00 UTC.
  @discardableResult
  func at(_ arguments: String..., now: String = "2026-03-10T12:00:00Z", zone: String = "UTC")
    throws -> Result
  {
    try run(arguments: ["--store", store] + arguments, environment: Self.clock(now, zone: zone))
  }

  /// What `list --json <arguments>` prints, decoded.
  func detailed(_ arguments: String...) throws -> [JSONDetailedTodo] {
    let result = try run(
      arguments: ["--store", store, "list", "--json"] + arguments,
      environment: Self.clock("2026-03-10T12:00:00Z"))
    #expect(result.status == 0, "list failed: \(result.error)")
    return try JSONDecoder().decode([JSONDetailedTodo].self, from: Data(result.output.utf8))
  }

  /// The ids `list --json <arguments>` prints, in order.
  func ids(_ arguments: String...) throws -> [Int] {
    let result = try run(
      arguments: ["--store", store, "list", "--json"] + arguments,
      environment: Self.clock("2026-03-10T12:00:00Z"))
    #expect(result.status == 0, "list \(arguments) failed: \(result.error)")
    return try JSONDecoder().decode([JSONDetailedTodo].self, from: Data(result.output.utf8))
      .map(\.id)
  }
}

@Suite("todo-cli tags, due dates, priorities, filters and sorting, end to end")
struct TagsDueDatesTests {
  @Test("add with --tag, --due and --priority; the JSON has tags (sorted), due and priority")
  func addWithDetails() throws {
    let cli = try CLIHarness()
    #expect(
      try cli.at(
        "add", "Buy milk", "--tag", "home", "--tag=Errands", "--due", "tomorrow",
        "--priority", "high"
      ).output == "1\n")
    #expect(try cli.at("add", "Plain").output == "2\n")
    #expect(
      try cli.detailed() == [
        JSONDetailedTodo(
          id: 1, title: "Buy milk", done: false, tags: ["Errands", "home"], due: "2026-03-11",
          priority: "high"),
        JSONDetailedTodo(id: 2, title: "Plain", done: false, tags: [], due: nil, priority: nil),
      ])
    #expect(
      try cli.at("list", "--json").output
        == #"[{"id":1,"title":"Buy milk","done":false,"tags":["Errands","home"],"#
        + #""due":"2026-03-11","priority":"high"},{"id":2,"title":"Plain","done":false,"#
        + #""tags":[],"due":null,"priority":null}]"# + "\n")
    #expect(
      try cli.at("list").output
        == "1 [ ] Buy milk  !high  due:2026-03-11  #Errands #home\n2 [ ] Plain\n")
  }

  @Test(
    "tag and untag compare without regard to case, keep the first spelling, and no-ops write nothing"
  )
  func tagging() throws {
    let cli = try CLIHarness()
    try cli.at("add", "a")
    #expect(try cli.at("tag", "1", "Work", "home").status == 0)
    let journal = try cli.storeContents()["journal-1.jsonl"]
    let again = try cli.at("tag", "1", "WORK", "Home")
    #expect(again.status == 0)
    #expect(try cli.storeContents()["journal-1.jsonl"] == journal, "a tag it has writes nothing")
    #expect(try cli.detailed().first?.tags == ["Work", "home"], "sorted, first spelling kept")
    #expect(try cli.at("untag", "1", "work").status == 0)
    #expect(try cli.detailed().first?.tags == ["home"])
    let untagJournal = try cli.storeContents()["journal-1.jsonl"]
    #expect(try cli.at("untag", "1", "absent").status == 0)
    #expect(try cli.storeContents()["journal-1.jsonl"] == untagJournal)
    #expect(try cli.at("undo").output == "undid 3: untag #1 work\n")
    #expect(try cli.detailed().first?.tags == ["Work", "home"])
    #expect(try cli.at("tag", "9", "x").status == 1)
  }

  @Test("due takes every date form in the local time zone, and none; priority takes none")
  func dueAndPriority() throws {
    let cli = try CLIHarness()
    try cli.at("add", "a")
    let forms: [(String, String?)] = [
      ("2026-12-31", "2026-12-31"), ("today", "2026-03-10"), ("tomorrow", "2026-03-11"),
      ("+3d", "2026-03-13"), ("+2w", "2026-03-24"), ("+0d", "2026-03-10"),
      ("2028-02-29", "2028-02-29"), ("none", nil),
    ]
    for (form, expected) in forms {
      #expect(try cli.at("due", "1", form).status == 0, "\(form)")
      #expect(try cli.detailed().first?.due == expected, "\(form)")
    }
    // 03:00 UTC on the 10th is still the 9th in Los Angeles.
    #expect(
      try cli.at("due", "1", "today", now: "2026-03-10T03:00:00Z", zone: "America/Los_Angeles")
        .status == 0)
    #expect(try cli.detailed().first?.due == "2026-03-09")
    for priority in ["low", "medium", "high"] {
      #expect(try cli.at("priority", "1", priority).status == 0)
      #expect(try cli.detailed().first?.priority == priority)
    }
    #expect(try cli.at("priority", "1", "none").status == 0)
    #expect(try cli.detailed().first?.priority == nil)
    #expect(try cli.at("due", "7", "today").error == "todo-cli: no todo with id 7\n")
  }

  @Test("list filters: --tag (all of them), --overdue, --due-before, --search, with --open/--done")
  func filters() throws {
    let cli = try CLIHarness()
    try cli.at("add", "Café au lait", "--tag", "food", "--tag", "home", "--due", "2026-03-09")
    try cli.at("add", "CAFE run", "--tag", "FOOD", "--due", "today")
    try cli.at("add", "Tea", "--due", "2026-03-01")
    try cli.at("add", "Other", "--tag", "home")
    try cli.at("done", "3")
    #expect(try cli.ids("--tag", "food") == [1, 2])
    #expect(try cli.ids("--tag", "Food", "--tag", "HOME") == [1])
    #expect(try cli.ids("--overdue") == [1, 3], "due today is not overdue")
    #expect(try cli.ids("--overdue", "--open") == [1])
    #expect(try cli.ids("--overdue", "--done") == [3])
    #expect(try cli.ids("--due-before", "2026-03-09") == [3])
    #expect(try cli.ids("--due-before", "tomorrow") == [1, 2, 3])
    #expect(try cli.ids("--search", "cafe") == [1, 2])
    #expect(try cli.ids("--search", "CAFÉ") == [1, 2])
    #expect(try cli.ids("--search", "au l") == [1])
    #expect(try cli.ids("--search", "nothing") == [])
    #expect(
      try cli.at("list", "--overdue").output
        == "1 [ ] Café au lait  due:2026-03-09 (overdue)  #food #home\n"
        + "3 [x] Tea  due:2026-03-01 (overdue)\n")
  }

  @Test("list --sort id, due (undated last), priority (none last) and title; ties by id")
  func sorting() throws {
    let cli = try CLIHarness()
    try cli.at("add", "b", "--due", "2026-04-01", "--priority", "low")
    try cli.at("add", "A", "--priority", "high")
    try cli.at("add", "c", "--due", "2026-03-01")
    try cli.at("add", "é", "--due", "2026-04-01", "--priority", "high")
    try cli.at("add", "d", "--priority", "medium")
    #expect(try cli.ids("--sort", "id") == [1, 2, 3, 4, 5])
    #expect(try cli.ids("--sort", "due") == [3, 1, 4, 2, 5])
    #expect(try cli.ids("--sort", "priority") == [2, 4, 5, 1, 3])
    #expect(try cli.ids("--sort", "title") == [2, 1, 3, 5, 4])
    #expect(try cli.ids("--sort", "due", "--tag", "none") == [])
  }

  @Test(
    "history --limit and --json: the newest n, newest last, the plain line's text, ISO 8601 time")
  func history() throws {
    let cli = try CLIHarness()
    try cli.at("add", "a", now: "2026-03-10T09:30:00Z")
    try cli.at("tag", "1", "x", now: "2026-03-10T09:31:00Z")
    try cli.at("priority", "1", "low", now: "2026-03-10T09:32:00Z")
    try cli.at("undo", now: "2026-03-10T09:33:00Z")
    #expect(
      try cli.at("history").output
        == "1  add #1 \"a\"\n2  tag #1 x\n3  priority #1 low\n4  undo 3: priority #1 none\n")
    #expect(
      try cli.at("history", "--limit", "2").output
        == "3  priority #1 low\n4  undo 3: priority #1 none\n")
    #expect(try cli.at("history", "--limit", "99").output.split(separator: "\n").count == 4)
    let json = try cli.at("history", "--limit=2", "--json")
    #expect(
      try JSONDecoder().decode([JSONHistoryEntry].self, from: Data(json.output.utf8)) == [
        JSONHistoryEntry(seq: 3, change: "priority #1 low", time: "2026-03-10T09:32:00Z"),
        JSONHistoryEntry(seq: 4, change: "undo 3: priority #1 none", time: "2026-03-10T09:33:00Z"),
      ])
    #expect(
      try cli.at("history", "--json").output.hasPrefix(#"[{"seq":1,"change":"add #1 \"a\"","#))
  }

  @Test("Bad values are usage errors (exit 2) that name the value, and change nothing")
  func usageErrors() throws {
    let cli = try CLIHarness()
    try cli.at("add", "only")
    let before = try cli.storeContents()
    let cases: [([String], String)] = [
      (["due", "1", "2026-02-30"], "'2026-02-30' is not a date"),
      (["due", "1", "2026-13-01"], "'2026-13-01' is not a date"),
      (["due", "1", "yesterday"], "'yesterday' is not a date"),
      (["due", "1", "+3x"], "'+3x' is not a date"),
      (["due", "1"], "'due' needs a todo id and a date"),
      (["add", "x", "--due", "2025-02-29"], "'2025-02-29' is not a date"),
      (["add", "x", "--due"], "--due needs a value"),
      (["list", "--due-before", "soon"], "'soon' is not a date"),
      (["tag", "1", "two words"], "'two words' is not a tag"),
      (["tag", "1"], "'tag' needs at least one tag"),
      (["untag", "1", "a b"], "'a b' is not a tag"),
      (["add", "x", "--tag", "a b"], "'a b' is not a tag"),
      (["list", "--tag", "a b"], "'a b' is not a tag"),
      (["priority", "1", "urgent"], "'urgent' is not a priority"),
      (["add", "x", "--priority", "none"], "'none' is not a priority"),
      (
        ["add", "x", "--priority", "high", "--priority", "low"],
        "--priority is given more than once"
      ),
      (["list", "--sort", "size"], "'size' is not a sort key"),
      (["history", "--limit", "0"], "'0' is not a limit"),
      (["history", "--limit", "-1"], "'-1' is not a limit"),
      (["history", "--limit", "two"], "'two' is not a limit"),
      (["history", "--limit", "1.5"], "'1.5' is not a limit"),
      (["due", "1", "+5000000d"], "'+5000000d' is past 9999-12-31"),
      (["tag", "one", "x"], "'one' is not a todo id"),
      (["done", "1", "--tag", "x"], "unknown option '--tag' for 'done'"),
    ]
    for (arguments, message) in cases {
      let result = try cli.run(
        arguments: ["--store", cli.store] + arguments,
        environment: CLIHarness.clock("2026-03-10T12:00:00Z"))
      #expect(result.status == 2, "\(arguments)")
      #expect(result.error.hasPrefix("todo-cli: \(message)"), "\(arguments): \(result.error)")
      #expect(result.output == "")
    }
    let badClock = try cli.run(
      arguments: ["--store", cli.store, "list"], environment: CLIHarness.clock("noon"))
    #expect(badClock.status == 2)
    #expect(badClock.error.contains("TODO_CLI_NOW is 'noon'"))
    #expect(try cli.storeContents() == before)
  }

  @Test("--record then replay reproduces the new changes, under another clock too")
  func recordThenReplay() throws {
    let cli = try CLIHarness()
    let log = cli.directory.appendingPathComponent("session.jsonl").path
    let commands: [[String]] = [
      ["add", "a", "--tag", "Work", "--due", "+1w", "--priority", "high"], ["add", "b"],
      ["tag", "2", "home", "x"], ["untag", "2", "X"], ["due", "2", "today"],
      ["priority", "2", "low"], ["due", "1", "none"], ["undo"], ["tag", "2", "HOME"],
    ]
    for command in commands {
      let result = try cli.run(
        arguments: ["--store", cli.store, "--record", log] + command,
        environment: CLIHarness.clock("2026-03-10T12:00:00Z"))
      #expect(result.status == 0, "\(command): \(result.error)")
    }
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    let entries = lines.filter { $0.hasPrefix(#"{"seq":"#) }
    #expect(entries.count == 8, "one line per change, none for the no-op")
    #expect(entries.allSatisfy { $0.contains(#""diff":["#) }, "recorded in diff mode")
    let effectLines = lines.filter { $0.hasPrefix(#"{"effect":"#) }
    #expect(effectLines.count == 2 * 9, "each command's effect: its start and its end")
    #expect(
      lines.count - effectLines.count == 1 + 8 + 8,
      "a header, and a checkpoint before each run's change")
    #expect(lines.contains { $0.contains(#""due":"2026-03-17""#) }, "the log holds the date")
    let listed = try cli.at("list", "--json")
    let replayed = try cli.run(
      arguments: ["replay", log, "--json"], environment: CLIHarness.clock("2030-01-01T00:00:00Z"))
    #expect(replayed.status == 0, "\(replayed.error)")
    #expect(replayed.output == listed.output)
  }
}
