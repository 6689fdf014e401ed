import Foundation
import Testing

@Suite("todo-cli commands, end to end")
struct CommandTests {
  @Test("add, list, done, reopen, edit, remove, clear, undo and history work together")
  func everyCommand() throws {
    let cli = try CLIHarness()
    #expect(try cli.run("add", "Buy milk").output == "1\n")
    #expect(try cli.run("add", "Call", "mom", "📞").output == "2\n")
    #expect(try cli.run("add", "שלום עולם").output == "3\n")
    #expect(try cli.run("add", "--", "-20% on shoes").output == "4\n")
    #expect(try cli.run("done", "2").status == 0)
    #expect(
      try cli.run("list").output
        == "1 [ ] Buy milk\n2 [x] Call mom 📞\n3 [ ] שלום עולם\n4 [ ] -20% on shoes\n")
    #expect(try cli.run("list", "--done").output == "2 [x] Call mom 📞\n")
    #expect(try cli.run("list", "--open").output.split(separator: "\n").count == 3)
    #expect(try cli.run("list", "--all").output.split(separator: "\n").count == 4)
    #expect(
      try cli.run("list", "--done", "--json").output
        == #"[{"id":2,"title":"Call mom 📞","done":true,"tags":[],"due":null,"priority":null}]"#
        + "\n")
    #expect(try cli.run("reopen", "2").status == 0)
    #expect(try cli.run("edit", "1", "Buy oat milk").status == 0)
    #expect(try cli.run("remove", "4").status == 0)
    #expect(try cli.run("done", "1").status == 0)
    #expect(try cli.run("done", "3").status == 0)
    #expect(try cli.run("clear").status == 0)
    #expect(try cli.todos() == [JSONTodo(id: 2, title: "Call mom 📞", done: false)])
    #expect(try cli.run("undo").output == "undid 11: clear\n")
    #expect(try cli.todos().map(\.id) == [1, 2, 3])
    #expect(try cli.run("undo").output == "undid 10: done #3\n")
    #expect(try cli.run("undo").output == "undid 9: done #1\n")
    #expect(try cli.run("undo").output == "undid 8: remove #4\n")
    #expect(
      try cli.todos() == [
        JSONTodo(id: 1, title: "Buy oat milk", done: false),
        JSONTodo(id: 2, title: "Call mom 📞", done: false),
        JSONTodo(id: 3, title: "שלום עולם", done: false),
        JSONTodo(id: 4, title: "-20% on shoes", done: false),
      ])
    let history = try cli.run("history")
    #expect(history.status == 0)
    let lines = history.output.split(separator: "\n")
    #expect(lines.count == 15)
    #expect(lines.first == #" 1  add #1 "Buy milk""#)
    #expect(lines.last == "15  undo 8: restore #4")
    #expect(try cli.run("add", "after undo").output == "5\n")
  }

  @Test("Undo keeps going back to an empty list, then says there is nothing to undo")
  func undoToTheStart() throws {
    let cli = try CLIHarness()
    try cli.run("add", "a")
    try cli.run("add", "b")
    try cli.run("done", "1")
    for _ in 0..<3 { #expect(try cli.run("undo").status == 0) }
    #expect(try cli.todos().isEmpty)
    let result = try cli.run("undo")
    #expect(result.status == 1)
    #expect(result.error == "todo-cli: nothing to undo\n")
  }

  @Test("An empty store lists nothing, as text and as JSON")
  func emptyStore() throws {
    let cli = try CLIHarness()
    #expect(try cli.run("list").output == "")
    #expect(try cli.run("list", "--json").output == "[]\n")
    #expect(try cli.run("history").output == "")
  }

  @Test("--help for the program and each command, --version, and help <command>")
  func helpAndVersion() throws {
    let cli = try CLIHarness()
    let help = try cli.run(arguments: ["--help"])
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("todo-cli 0.2.0: a todo list that never loses a todo\n"))
    for command in [
      "add", "list", "done", "reopen", "edit", "remove", "clear", "undo", "history", "replay",
      "ui",
    ] {
      let result = try cli.run(arguments: [command, "--help"])
      #expect(result.status == 0)
      #expect(
        result.output.hasPrefix("Usage: todo-cli [--store <dir>] [--record <file>] \(command)"))
      #expect(try cli.run(arguments: ["help", command]).output == result.output)
    }
    #expect(try cli.run(arguments: ["--version"]).output == "todo-cli 0.2.0\n")
  }

  @Test("The default store is $TODO_CLI_HOME, else $XDG_DATA_HOME/todo-cli, else ~/.local/share")
  func defaultStore() throws {
    let cli = try CLIHarness()
    let base = cli.directory.path
    try cli.run(arguments: ["add", "home"], environment: ["TODO_CLI_HOME": base + "/explicit"])
    try cli.run(
      arguments: ["add", "xdg"], environment: ["XDG_DATA_HOME": base + "/xdg", "HOME": base])
    try cli.run(arguments: ["add", "plain"], environment: ["HOME": base + "/home"])
    for path in ["/explicit", "/xdg/todo-cli", "/home/.local/share/todo-cli"] {
      #expect(FileManager.default.fileExists(atPath: base + path + "/journal-1.jsonl"), "\(path)")
    }
    let none = try cli.run(arguments: ["list"], environment: [:])
    #expect(none.status == 2)
    #expect(none.error.contains("no store directory"))
  }

  @Test("Help, the version and shrink read no store, so they run where no store can be found")
  func storelessCommands() throws {
    let cli = try CLIHarness()
    let version = try cli.run(arguments: ["--version"], environment: [:])
    #expect(version.status == 0)
    #expect(version.output == "todo-cli 0.2.0\n")
    let help = try cli.run(arguments: ["help", "shrink"], environment: [:])
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("Usage: todo-cli [--store <dir>] [--record <file>] shrink"))
    // The log's own error, not the missing store's.
    let log = cli.directory.path + "/no-such-session.jsonl"
    let shrink = try cli.run(arguments: ["shrink", log, "--diverges"], environment: [:])
    #expect(shrink.status == 1)
    #expect(shrink.error.contains("no-such-session.jsonl"))
    #expect(!shrink.error.contains("no store directory"))
  }
}

@Suite("todo-cli exit codes and bad input")
struct ExitCodeTests {
  @Test("Unknown ids fail with exit 1 and a message naming the id; nothing changes")
  func unknownIDs() throws {
    let cli = try CLIHarness()
    try cli.run("add", "only")
    let before = try cli.storeContents()
    for arguments in [["done", "42"], ["reopen", "42"], ["edit", "42", "x"], ["remove", "42"]] {
      let result = try cli.run(arguments: ["--store", cli.store] + arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error == "todo-cli: no todo with id 42\n")
      #expect(result.output == "")
    }
    #expect(try cli.storeContents() == before)
  }

  @Test("Usage errors exit 2 with a message naming what was wrong, and change nothing")
  func usageErrors() throws {
    let cli = try CLIHarness()
    try cli.run("add", "only")
    let before = try cli.storeContents()
    let cases: [([String], String)] = [
      ([], "missing command"),
      (["frobnicate"], "unknown command 'frobnicate'"),
      (["add"], "'add' needs a title"),
      (["add", ""], "the title is empty"),
      (["add", "   "], "the title is empty"),
      (["edit", "1", " \t "], "the title is empty"),
      (["done"], "'done' needs a todo id"),
      (["done", "one"], "'one' is not a todo id"),
      (["remove", "1.5"], "'1.5' is not a todo id"),
      (["done", "1", "2"], "unexpected argument '2'"),
      (["list", "--everything"], "unknown option '--everything' for 'list'"),
      (["list", "--done", "--open"], "choose one of --all, --done and --open"),
      (["clear", "all"], "unexpected argument 'all'"),
      (["replay"], "'replay' needs the path of an action log"),
    ]
    for (arguments, message) in cases {
      let result = try cli.run(arguments: ["--store", cli.store] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.error.hasPrefix("todo-cli: \(message)"), "\(arguments): \(result.error)")
      #expect(result.error.contains("--help' for usage."))
      #expect(result.output == "")
    }
    let missingValue = try cli.run(arguments: ["list", "--store"])
    #expect(missingValue.status == 2)
    #expect(missingValue.error.contains("--store needs a value"))
    #expect(try cli.storeContents() == before)
  }

  @Test("A store path that is a file fails with exit 1 naming the path")
  func unusableStore() throws {
    let cli = try CLIHarness()
    let file = cli.directory.appendingPathComponent("not-a-directory").path
    _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
    let result = try cli.run(arguments: ["--store", file, "add", "x"])
    #expect(result.status == 1)
    #expect(result.error.contains("not-a-directory"))
  }
}
