/// The help texts of `todo-cli` and each of its commands.
enum CommandHelp {
  /// The version `--version` prints.
  static let version = "0.2.0"

  /// One command-specific option.
  struct Option {
    let flag: String
    /// What the option's value is called in the help (`tag` for `--tag <tag>`), or `nil` for a
    /// flag without a value.
    var value: String? = nil
    let summary: String

    /// `--tag <tag>`, or the flag alone.
    var usage: String { flag + (value.map { " <\($0)>" } ?? "") }
  }

  /// A command's name, usage, summary and details.
  struct Spec {
    let name: String
    let arguments: String
    let summary: String
    let details: [String]
    var options: [Option] = []

    /// The name and the arguments without options, for the program's command table.
    var synopsis: String {
      let options = arguments.firstRange(of: "[--")?.lowerBound ?? arguments.endIndex
      let positional = arguments[..<options].split(separator: " ")
      return ([name] + positional.map(String.init)).joined(separator: " ")
    }
  }

  static let specs: [Spec] = [
    Spec(
      name: "add",
      arguments: "<title> [--tag <tag>]... [--due <date>] [--priority high|medium|low]",
      summary: "Add an open todo and print its id",
      details: [
        "The title is any non-empty text, emoji and right-to-left scripts included.",
        "Several words are joined with spaces. Put '--' before a title that starts",
        "with a dash: todo-cli add -- \"-20% on shoes\"",
        dateHelp,
      ],
      options: [
        Option(flag: "--tag", value: "tag", summary: "Give it a tag; repeat for more"),
        Option(flag: "--due", value: "date", summary: "Give it a due date"),
        Option(flag: "--priority", value: "priority", summary: "high, medium or low"),
      ]),
    Spec(
      name: "list",
      arguments:
        "[--all | --done | --open] [--tag <tag>]... [--overdue] [--due-before <date>] "
        + "[--search <text>] [--sort id|due|priority|title] [--json]",
      summary: "List the todos (filters, --sort, --json)",
      details: [
        "Each line shows the id, [x] for done or [ ] for open, and the title, then the",
        "priority (!high), the due date (due:2026-03-01, marked overdue when it is past)",
        "and the tags (#work). With --json, prints one JSON array of {\"id\", \"title\",",
        "\"done\", \"tags\", \"due\", \"priority\"} objects. Filters combine: a todo must",
        "pass every one. --sort due puts undated todos last; ties go by id.",
        dateHelp,
      ],
      options: [
        Option(flag: "--all", summary: "Open and done todos (the default)"),
        Option(flag: "--done", summary: "Only the done todos"),
        Option(flag: "--open", summary: "Only the open todos"),
        Option(
          flag: "--tag", value: "tag",
          summary: "Only todos with this tag; repeat for all of several"),
        Option(flag: "--overdue", summary: "Only todos due before today"),
        Option(flag: "--due-before", value: "date", summary: "Only todos due before this date"),
        Option(
          flag: "--search", value: "text",
          summary: "Only titles holding the text, whatever the case or accents"),
        Option(flag: "--sort", value: "key", summary: "id, due, priority or title"),
        Option(flag: "--json", summary: "Print JSON instead of text"),
      ]),
    Spec(
      name: "tag", arguments: "<id> <tag>...", summary: "Give a todo tags",
      details: [
        "A tag is one word, without spaces. Tags are compared without regard to case",
        "and shown as first written; a tag the todo has already changes nothing.",
      ]),
    Spec(
      name: "untag", arguments: "<id> <tag>...", summary: "Take tags off a todo",
      details: ["Tags are matched without regard to case."]),
    Spec(
      name: "due", arguments: "<id> <date>|none", summary: "Set or clear a todo's due date",
      details: [dateHelp]),
    Spec(
      name: "priority", arguments: "<id> high|medium|low|none",
      summary: "Set or clear a todo's priority", details: []),
    Spec(
      name: "done", arguments: "<id>", summary: "Mark a todo done",
      details: ["Fails with exit status 1 if no todo has this id."]),
    Spec(
      name: "reopen", arguments: "<id>", summary: "Mark a done todo open again",
      details: ["Fails with exit status 1 if no todo has this id."]),
    Spec(
      name: "edit", arguments: "<id> <title>", summary: "Give a todo a new title",
      details: ["Fails with exit status 1 if no todo has this id."]),
    Spec(
      name: "remove", arguments: "<id>", summary: "Remove a todo",
      details: ["Ids are never reused. 'todo-cli undo' brings the todo back."]),
    Spec(
      name: "clear", arguments: "", summary: "Remove every done todo",
      details: ["'todo-cli undo' brings them back, in their places."]),
    Spec(
      name: "undo", arguments: "", summary: "Revert the last change; repeat to go further back",
      details: [
        "Prints the change it reverted. The revert is itself recorded, so 'history'",
        "keeps everything. Fails with exit status 1 when there is nothing to undo.",
      ]),
    Spec(
      name: "history", arguments: "[--limit <n>] [--json]",
      summary: "Show the recorded changes, newest last",
      details: [
        "Each line shows the change's number and what it did. With --json, prints one",
        "JSON array of {\"seq\", \"change\", \"time\"} objects; \"change\" is the text the",
        "line shows and \"time\" is when it was made (ISO 8601; null for changes made",
        "before todo-cli recorded times).",
      ],
      options: [
        Option(flag: "--limit", value: "n", summary: "Only the newest n changes"),
        Option(flag: "--json", summary: "Print JSON instead of text"),
      ]),
    Spec(
      name: "replay", arguments: "<log> [--json]",
      summary: "Replay an action log onto an empty list and print it (--json)",
      details: [
        "<log> is an action log, such as one written with --record. The result is",
        "printed as 'list' prints it; the store is neither read nor changed.",
      ],
      options: [Option(flag: "--json", summary: "Print JSON instead of text")]),
    Spec(
      name: "shrink", arguments: "<log> [--expect <pointer>=<json> | --diverges] [--output <file>]",
      summary: "Shrink a recorded session to the smallest failing test",
      details: [
        "<log> is an action log written with --record. --expect names what the final",
        "state should hold, as a path and a JSON value: --expect '/todos[id=3]/done=true'",
        "(or /todos/0/done=true). --diverges fails where replaying today's code does not",
        "make the change the log recorded. Prints a Swift test, or writes it to <file>.",
      ],
      options: [
        Option(flag: "--expect", value: "check", summary: "The value a path should have"),
        Option(flag: "--diverges", summary: "Fail where the replay differs from the log"),
        Option(flag: "--output", value: "file", summary: "Write the test to <file>"),
      ]),
    Spec(
      name: "ui", arguments: "", summary: "Open the interactive terminal interface",
      details: ["Needs a terminal. Changes are saved as they are made."]),
    Spec(
      name: "help", arguments: "[<command>]", summary: "Show help for todo-cli or a command",
      details: []),
  ]

  private static let dateHelp =
    "A date is YYYY-MM-DD, today, tomorrow, +<n>d or +<n>w, in the local time zone."

  /// The command options that take a value, such as `--tag`.
  static let valueOptions: Set<String> = Set(
    specs.flatMap(\.options).compactMap { $0.value == nil ? nil : $0.flag })

  /// What the value of `option` is called in the help.
  static func valueName(of option: String) -> String {
    specs.lazy.flatMap(\.options).first { $0.flag == option }?.value ?? "value"
  }

  private static func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  static func spec(named name: String) -> Spec? {
    specs.first { $0.name == name }
  }

  /// The program's help: what `todo-cli --help` prints.
  static var program: String {
    let rows = specs.map { ($0.synopsis, $0.summary) }
    let width = rows.map(\.0.count).max() ?? 0
    let commands = rows.map { usage, summary in
      "  " + padded(usage, to: width + 2) + summary
    }
    return
      (["todo-cli \(version): a todo list that never loses a todo", ""]
      + ["Usage: todo-cli [--store <dir>] [--record <file>] <command> [<arguments>]", ""]
      + ["Commands:"] + commands + [""] + globalOptions + ["", "Exit status:"] + exitStatuses + [
        "Messages go to standard error; the status holds even when they are lost.",
        "Run 'todo-cli <command> --help' for a command's details.",
      ]).joined(separator: "\n") + "\n"
  }

  /// One line per exit status and what it means.
  private static var exitStatuses: [String] {
    ExitCode.allCases.map { "  \($0.rawValue)  \($0.meaning)" }
  }

  private static let globalOptions = [
    "Options:",
    "  --store <dir>    Where the todos live. Default: $TODO_CLI_HOME, else",
    "                   $XDG_DATA_HOME/todo-cli, else ~/.local/share/todo-cli",
    "  --record <file>  Append the changes this run makes to <file>, an action log",
    "  -h, --help       Show help",
    "  --version        Show the version",
  ]

  /// One command's help: what `todo-cli <command> --help` prints, or `nil` for an unknown name.
  static func command(_ name: String) -> String? {
    guard let spec = spec(named: name) else { return nil }
    var lines = ["Usage: todo-cli [--store <dir>] [--record <file>] \(spec.name)"]
    if !spec.arguments.isEmpty { lines[0] += " \(spec.arguments)" }
    lines += ["", spec.summary + "."]
    if !spec.details.isEmpty { lines += [""] + spec.details }
    if !spec.options.isEmpty {
      let width = spec.options.map(\.usage.count).max() ?? 0
      lines += ["", "Options:"]
      lines += spec.options.map { option in
        "  " + padded(option.usage, to: width + 2)
          + option.summary
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
