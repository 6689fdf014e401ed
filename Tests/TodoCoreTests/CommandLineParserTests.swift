import TerminalKit
import Testing

@testable import TodoCore

@Suite("Command-line parsing")
struct CommandLineParserTests {
  func parse(_ arguments: String...) throws -> Invocation {
    try CommandLineParser.parse(arguments)
  }

  func usageError(_ arguments: String...) -> UsageError? {
    do {
      _ = try CommandLineParser.parse(arguments)
      return nil
    } catch {
      return error
    }
  }

  @Test("Every pinned command parses")
  func commands() throws {
    #expect(try parse("add", "Buy milk").command == .add(title: "Buy milk"))
    #expect(try parse("add", "Buy", "oat", "milk").command == .add(title: "Buy oat milk"))
    #expect(try parse("list").command == .list(.all, json: false))
    #expect(try parse("list", "--open", "--json").command == .list(.open, json: true))
    #expect(try parse("list", "--done").command == .list(.done, json: false))
    #expect(try parse("list", "--all").command == .list(.all, json: false))
    #expect(try parse("done", "3").command == .setDone(id: 3, done: true))
    #expect(try parse("reopen", "#3").command == .setDone(id: 3, done: false))
    #expect(try parse("edit", "3", "New", "title").command == .edit(id: 3, title: "New title"))
    #expect(try parse("remove", "12").command == .remove(id: 12))
    #expect(try parse("clear").command == .clear)
    #expect(try parse("undo").command == .undo)
    #expect(try parse("history").command == .history())
    #expect(
      try parse("replay", "s.jsonl", "--json").command == .replay(path: "s.jsonl", json: true))
    #expect(try parse("ui").command == .ui)
    #expect(try parse("--version").command == .version)
    #expect(try parse("help", "add").command == .help(command: "add"))
  }

  @Test("Global options go anywhere, with a space or an equals sign")
  func globalOptions() throws {
    let first = try parse("--store", "/s", "add", "x", "--record=/r.jsonl")
    #expect(
      first == Invocation(command: .add(title: "x"), storeDirectory: "/s", recordPath: "/r.jsonl"))
    let second = try parse("list", "--store=/s")
    #expect(second.storeDirectory == "/s")
  }

  @Test("--help asks for the program's help or the command's")
  func help() throws {
    #expect(try parse("--help").command == .help(command: nil))
    #expect(try parse("-h").command == .help(command: nil))
    #expect(try parse("add", "--help").command == .help(command: "add"))
    #expect(try parse("--help", "list", "--bogus").command == .help(command: "list"))
  }

  @Test("-- lets a title start with a dash; emoji and right-to-left titles pass through")
  func titles() throws {
    #expect(try parse("add", "--", "-20% on shoes").command == .add(title: "-20% on shoes"))
    #expect(try parse("add", "-").command == .add(title: "-"))
    #expect(try parse("add", "🥛 שלום").command == .add(title: "🥛 שלום"))
  }

  @Test("Usage errors name what was wrong")
  func errors() {
    #expect(usageError()?.message == "missing command")
    #expect(usageError("frobnicate")?.message == "unknown command 'frobnicate'")
    #expect(usageError("add")?.message == "'add' needs a title")
    #expect(usageError("add", "  ")?.message.contains("title is empty") == true)
    #expect(usageError("edit", "1", "\t")?.message.contains("title is empty") == true)
    #expect(usageError("done")?.message == "'done' needs a todo id")
    #expect(usageError("done", "abc")?.message.contains("'abc' is not a todo id") == true)
    #expect(usageError("done", "0")?.message.contains("'0' is not a todo id") == true)
    #expect(usageError("done", "-3")?.message == "unknown option '-3' for 'done'")
    #expect(usageError("done", "1", "2")?.message == "unexpected argument '2' for 'done'")
    #expect(usageError("list", "--bogus")?.message == "unknown option '--bogus' for 'list'")
    #expect(usageError("list", "--done", "--open")?.message.contains("choose one") == true)
    #expect(usageError("list", "--store")?.message.contains("--store needs a value") == true)
    #expect(usageError("replay")?.message == "'replay' needs the path of an action log")
    #expect(usageError("clear", "now")?.message == "unexpected argument 'now' for 'clear'")
    #expect(usageError("--bogus")?.message == "unknown option '--bogus'")
    #expect(usageError("add", "x")?.command == nil)
    #expect(
      usageError("done", "x")?.description.hasSuffix("Run 'todo-cli done --help' for usage.")
        == true)
  }
}
