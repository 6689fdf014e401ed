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
    var flags: [String] = []
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
        default: flags.append(argument)
        }
      }
      index += 1
    }
    let command = try makeCommand(
      words: words, flags: flags, wantsHelp: wantsHelp, wantsVersion: wantsVersion)
    return Invocation(command: command, storeDirectory: storeDirectory, recordPath: recordPath)
  }

  private static func optionValueName(_ option: String) -> String {
    option == "--store" ? "dir" : "file"
  }

  private static func makeCommand(
    words: [String], flags: [String], wantsHelp: Bool, wantsVersion: Bool
  ) throws(UsageError) -> Command {
    guard let name = words.first else {
      if wantsHelp { return .help(command: nil) }
      if wantsVersion { return .version }
      if let flag = flags.first { throw UsageError("unknown option '\(flag)'") }
      throw UsageError("missing command")
    }
    guard let spec = CommandHelp.spec(named: name) else {
      throw UsageError("unknown command '\(name)'")
    }
    if wantsHelp { return .help(command: name) }
    if wantsVersion { throw UsageError("--version takes no command", command: name) }
    let arguments = Array(words.dropFirst())
    var options = Set<String>()
    for flag in flags {
      guard spec.options.contains(where: { $0.flag == flag }) else {
        throw UsageError("unknown option '\(flag)' for '\(name)'", command: name)
      }
      options.insert(flag)
    }
    return try command(named: name, arguments: arguments, options: options)
  }

  private static func command(named name: String, arguments: [String], options: Set<String>)
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
      return .add(title: try title(arguments[...], for: name))
    case "list":
      try expect(0, "no arguments")
      let filters = ListFilter.allCases.filter { options.contains("--\($0.rawValue)") }
      guard filters.count <= 1 else {
        throw UsageError(
          "choose one of --all, --done and --open, not several", command: name)
      }
      return .list(filters.first ?? .all, json: options.contains("--json"))
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
      case "history": return .history
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
