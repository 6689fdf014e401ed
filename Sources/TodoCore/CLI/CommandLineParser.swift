import TerminalKit

/// Turns `todo-cli`'s arguments into an ``Invocation``, or a ``UsageError`` naming what is wrong.
///
/// Global options (`--store`, `--record`, `--help`, `--version`) may appear anywhere; `--`
/// ends the options, so that a title may start with a dash. Several words of a title are joined
/// with single spaces, as if quoted.
enum CommandLineParser {
  /// Parses `arguments`, without the program name.
  ///
  /// - Complexity: O(arguments).
  static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var words: [String] = []
    var flags: [Flag] = []
    var storeDirectory: String?
    var recordPath: String?
    var wantsHelp = false
    var wantsVersion = false
    var index = 0
    var optionsEnded = false
    func value(for option: String, inline: String?) throws(UsageError) -> String {
      if let inline {
        guard !inline.isEmpty else { throw UsageError("\(option) needs a value") }
        return inline
      }
      index += 1
      guard index < arguments.count, !arguments[index].isEmpty else {
        throw UsageError("\(option) needs a value: \(option) <\(optionValueName(option))>")
      }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        words.append(argument)
      } else if argument == "--" {
        optionsEnded = true
      } else {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let inline = parts.count > 1 ? String(parts[1]) : nil
        switch name {
        case "--store": storeDirectory = try value(for: name, inline: inline)
        case "--record": recordPath = try value(for: name, inline: inline)
        case "--help", "-h": wantsHelp = true
        case "--version": wantsVersion = true
        default:
          if CommandHelp.valueOptions.contains(name) {
            flags.append(Flag(name: name, value: try value(for: name, inline: inline)))
          } else {
            flags.append(Flag(name: argument, value: nil))
          }
        }
      }
      index += 1
    }
    let command = try makeCommand(
      words: words, flags: flags, wantsHelp: wantsHelp, wantsVersion: wantsVersion)
    return Invocation(command: command, storeDirectory: storeDirectory, recordPath: recordPath)
  }

  /// A command's option as given: its name and, for one that takes a value, the value.
  private struct Flag {
    var name: String
    var value: String?
  }

  /// The options given to a command, looked up by name.
  private struct Options {
    var flags: [Flag]
    var command: String

    func contains(_ name: String) -> Bool { flags.contains { $0.name == name } }

    /// Every value given to `name`, in order.
    func values(_ name: String) -> [String] {
      flags.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The value given to `name`, or `nil`; giving it twice is an error.
    func value(_ name: String) throws(UsageError) -> String? {
      let values = values(name)
      guard values.count <= 1 else {
        throw UsageError("\(name) is given more than once", command: command)
      }
      return values.first
    }
  }

  private static func optionValueName(_ option: String) -> String {
    switch option {
    case "--store": "dir"
    case "--record": "file"
    default: CommandHelp.valueName(of: option)
    }
  }

  private static func makeCommand(
    words: [String], flags: [Flag], wantsHelp: Bool, wantsVersion: Bool
  ) throws(UsageError) -> Command {
    guard let name = words.first else {
      if wantsHelp { return .help(command: nil) }
      if wantsVersion { return .version }
      if let flag = flags.first { throw UsageError("unknown option '\(flag.name)'") }
      throw UsageError("missing command")
    }
    guard let spec = CommandHelp.spec(named: name) else {
      throw UsageError("unknown command '\(name)'")
    }
    if wantsHelp { return .help(command: name) }
    if wantsVersion { throw UsageError("--version takes no command", command: name) }
    let arguments = Array(words.dropFirst())
    for flag in flags where !spec.options.contains(where: { $0.flag == flag.name }) {
      throw UsageError("unknown option '\(flag.name)' for '\(name)'", command: name)
    }
    return try command(
      named: name, arguments: arguments, options: Options(flags: flags, command: name))
  }

  private static func command(named name: String, arguments: [String], options: Options)
    throws(UsageError) -> Command
  {
    func expect(_ count: Int, _ what: String) throws(UsageError) {
      if arguments.count < count {
        throw UsageError("'\(name)' needs \(what)", command: name)
      }
      if arguments.count > count {
        throw UsageError(
          "unexpected argument '\(arguments[count])' for '\(name)'", command: name)
      }
    }
    switch name {
    case "add":
      return .add(
        title: try title(arguments[...], for: name),
        tags: try tags(options.values("--tag"), for: name),
        due: try options.value("--due").map { value throws(UsageError) in
          try date(value, for: name)
        },
        priority: try options.value("--priority").flatMap { value throws(UsageError) in
          try priority(value, for: name, allowingNone: false)
        })
    case "list":
      try expect(0, "no arguments")
      let filters = ListFilter.allCases.filter { options.contains("--\($0.rawValue)") }
      guard filters.count <= 1 else {
        throw UsageError(
          "choose one of --all, --done and --open, not several", command: name)
      }
      return .list(
        filters.first ?? .all, json: options.contains("--json"),
        query: try listQuery(options, for: name))
    case "tag", "untag":
      guard let first = arguments.first else {
        throw UsageError("'\(name)' needs a todo id and at least one tag", command: name)
      }
      let id = try id(first, for: name)
      let tags = try tags(Array(arguments.dropFirst()), for: name)
      guard !tags.isEmpty else {
        throw UsageError("'\(name)' needs at least one tag after the id", command: name)
      }
      return name == "tag" ? .tag(id: id, tags: tags) : .untag(id: id, tags: tags)
    case "due":
      try expect(2, "a todo id and a date (\(DateArgument.forms), or none)")
      let id = try id(arguments[0], for: name)
      if arguments[1] == "none" { return .due(id: id, date: nil) }
      return .due(id: id, date: try date(arguments[1], for: name))
    case "priority":
      try expect(2, "a todo id and a priority (high, medium, low or none)")
      return .priority(
        id: try id(arguments[0], for: name),
        priority: try priority(arguments[1], for: name, allowingNone: true))
    case "history":
      try expect(0, "no arguments")
      return .history(
        limit: try options.value("--limit").map { value throws(UsageError) in
          try limit(value, for: name)
        },
        json: options.contains("--json"))
    case "done", "reopen":
      try expect(1, "a todo id")
      return .setDone(id: try id(arguments[0], for: name), done: name == "done")
    case "edit":
      guard let first = arguments.first else {
        throw UsageError("'edit' needs a todo id and a title", command: name)
      }
      return .edit(
        id: try id(first, for: name), title: try title(arguments.dropFirst(), for: name))
    case "remove":
      try expect(1, "a todo id")
      return .remove(id: try id(arguments[0], for: name))
    case "replay":
      try expect(1, "the path of an action log")
      return .replay(path: arguments[0], json: options.contains("--json"))
    case "shrink":
      try expect(1, "the path of an action log")
      let check: ShrinkCheckArgument
      switch (try options.value("--expect"), options.contains("--diverges")) {
      case (let expectation?, false):
        check = try ShrinkCheckArgument.expectation(expectation, command: name)
      case (nil, true):
        check = .diverges
      default:
        throw UsageError("give one of --expect <pointer>=<json> and --diverges", command: name)
      }
      return .shrink(path: arguments[0], check: check, output: try options.value("--output"))
    case "help":
      guard arguments.count <= 1 else {
        throw UsageError("unexpected argument '\(arguments[1])' for 'help'", command: name)
      }
      if let topic = arguments.first, CommandHelp.spec(named: topic) == nil {
        throw UsageError("unknown command '\(topic)'")
      }
      return .help(command: arguments.first)
    default:
      try expect(0, "no arguments")
      switch name {
      case "clear": return .clear
      case "undo": return .undo
      default: return .ui
      }
    }
  }

  private static func title(_ words: ArraySlice<String>, for name: String) throws(UsageError)
    -> String
  {
    let title = words.joined(separator: " ")
    guard !words.isEmpty else { throw UsageError("'\(name)' needs a title", command: name) }
    guard Title.isValid(title) else {
      throw UsageError(
        "the title is empty; give a title with at least one visible character", command: name)
    }
    return title
  }

  private static func listQuery(_ options: Options, for name: String) throws(UsageError)
    -> ListQuery
  {
    var query = ListQuery()
    query.tags = try tags(options.values("--tag"), for: name)
    query.overdue = options.contains("--overdue")
    query.dueBefore = try options.value("--due-before").map { value throws(UsageError) in
      try date(value, for: name)
    }
    query.search = try options.value("--search")
    if let sort = try options.value("--sort") {
      guard let key = SortKey(rawValue: sort) else {
        throw UsageError(
          "'\(TerminalSafeText.escaped(sort))' is not a sort key: use id, due, priority or title",
          command: name)
      }
      query.sort = key
    }
    return query
  }

  private static func tags(_ tags: [String], for name: String) throws(UsageError) -> [String] {
    for tag in tags where !Tags.isValid(tag) {
      throw UsageError(
        "'\(TerminalSafeText.escaped(tag))' is not a tag: a tag is one word, without spaces",
        command: name)
    }
    return tags
  }

  private static func date(_ text: String, for name: String) throws(UsageError) -> DateArgument {
    guard let date = DateArgument(text) else {
      throw UsageError(
        "'\(TerminalSafeText.escaped(text))' is not a date: use \(DateArgument.forms), and a "
          + "day that exists", command: name)
    }
    return date
  }

  private static func priority(_ text: String, for name: String, allowingNone: Bool)
    throws(UsageError) -> Priority?
  {
    if allowingNone, text == "none" { return nil }
    guard let priority = Priority(rawValue: text) else {
      throw UsageError(
        "'\(TerminalSafeText.escaped(text))' is not a priority: use high, medium, low"
          + (allowingNone ? " or none" : ""), command: name)
    }
    return priority
  }

  private static func limit(_ text: String, for name: String) throws(UsageError) -> Int {
    guard let limit = Int(text), limit > 0, text.allSatisfy(\.isASCII),
      text.first != "+"
    else {
      throw UsageError(
        "'\(TerminalSafeText.escaped(text))' is not a limit: expected a positive whole number",
        command: name)
    }
    return limit
  }

  private static func id(_ text: String, for name: String) throws(UsageError) -> Int {
    let digits = text.hasPrefix("#") ? text.dropFirst() : text[...]
    guard let id = Int(digits), id > 0, digits.allSatisfy(\.isASCII) else {
      throw UsageError(
        "'\(text)' is not a todo id: expected a positive whole number such as 3",
        command: name)
    }
    return id
  }
}
