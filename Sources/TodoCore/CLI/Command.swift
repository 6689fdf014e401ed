/// What a `todo-cli` invocation asks for, once its arguments are parsed.
enum Command: Hashable, Sendable {
  /// `add <title> [--tag <tag>]... [--due <date>] [--priority high|medium|low]`: add an open
  /// todo and print its id.
  case add(
    title: String, tags: [String] = [], due: DateArgument? = nil, priority: Priority? = nil)
  /// `list [--all | --done | --open] [--tag <tag>]... [--overdue] [--due-before <date>]
  /// [--search <text>] [--sort id|due|priority|title] [--json]`.
  case list(ListFilter, json: Bool, query: ListQuery = ListQuery())
  /// `tag <id> <tag>...`.
  case tag(id: Int, tags: [String])
  /// `untag <id> <tag>...`.
  case untag(id: Int, tags: [String])
  /// `due <id> <date>|none`; `nil` for `none`.
  case due(id: Int, date: DateArgument?)
  /// `priority <id> high|medium|low|none`; `nil` for `none`.
  case priority(id: Int, priority: Priority?)
  /// `done <id>` (`true`) or `reopen <id>` (`false`).
  case setDone(id: Int, done: Bool)
  /// `edit <id> <title>`.
  case edit(id: Int, title: String)
  /// `remove <id>`.
  case remove(id: Int)
  /// `clear`: remove the done todos.
  case clear
  /// `undo`: revert the last change.
  case undo
  /// `history [--limit <n>] [--json]`: show the newest `limit` recorded changes (all of them
  /// without a limit), newest last.
  case history(limit: Int? = nil, json: Bool = false)
  /// `replay <log> [--json]`: replay an action log onto an empty list and print it.
  case replay(path: String, json: Bool)
  /// `shrink <log> (--expect <pointer>=<json> | --diverges) [--output <file>]`: shrink a
  /// recorded session to the smallest one that still fails, and print it as a test.
  case shrink(path: String, check: ShrinkCheckArgument, output: String?)
  /// `ui`: the interactive terminal interface.
  case ui
  /// `--help`, `help [command]`: the program's help, or one command's.
  case help(command: String?)
  /// `--version`.
  case version

  /// Whether the command changes the store, and so takes its exclusive lock.
  var changesStore: Bool {
    switch self {
    case .add, .setDone, .edit, .remove, .clear, .undo, .tag, .untag, .due, .priority: true
    case .list, .history, .replay, .shrink, .ui, .help, .version: false
    }
  }
}

/// Which todos `list` shows.
enum ListFilter: String, Hashable, Sendable, CaseIterable {
  /// Open and done todos.
  case all
  /// Only the open todos.
  case open
  /// Only the done todos.
  case done

  /// Whether `todo` passes the filter.
  func includes(_ todo: Todo) -> Bool {
    switch self {
    case .all: true
    case .open: !todo.done
    case .done: todo.done
    }
  }
}

/// A date as the command line gives it: a calendar date, or a number of days from today, which
/// the command resolves when it runs.
enum DateArgument: Hashable, Sendable, CustomStringConvertible {
  /// `YYYY-MM-DD`.
  case date(CalendarDate)
  /// `today` (0), `tomorrow` (1), `+<n>d` (n), `+<n>w` (7n).
  case daysFromToday(Int)

  /// The calendar date this names when today is `today`, or `nil` past 9999-12-31.
  func resolved(today: CalendarDate) -> CalendarDate? {
    switch self {
    case .date(let date): date
    case .daysFromToday(let days): today.adding(days: days)
    }
  }

  /// The date `text` names, or `nil` if it names none (including a day that does not exist,
  /// such as `2026-02-30`).
  init?(_ text: String) {
    switch text {
    case "today": self = .daysFromToday(0)
    case "tomorrow": self = .daysFromToday(1)
    default:
      if text.hasPrefix("+"), let unit = text.last, unit == "d" || unit == "w" {
        let digits = text.dropFirst().dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
          let count = Int(digits)
        else { return nil }
        let (days, overflow) = count.multipliedReportingOverflow(by: unit == "w" ? 7 : 1)
        guard !overflow else { return nil }
        self = .daysFromToday(days)
      } else if let date = CalendarDate(text) {
        self = .date(date)
      } else {
        return nil
      }
    }
  }

  /// The date as it could have been typed: `2026-03-01`, `today`, `tomorrow` or `+3d`.
  var description: String {
    switch self {
    case .date(let date): date.description
    case .daysFromToday(0): "today"
    case .daysFromToday(1): "tomorrow"
    case .daysFromToday(let days): "+\(days)d"
    }
  }

  /// How a date may be written, for messages and help.
  static let forms = "YYYY-MM-DD, today, tomorrow, +<n>d or +<n>w"
}

/// How `list` orders the todos.
enum SortKey: String, Hashable, Sendable, CaseIterable {
  /// By id.
  case id
  /// Dated todos by date, then undated ones; ties by id.
  case due
  /// High, medium, low, then none; ties by id.
  case priority
  /// By title, without regard to case or accents; ties by id.
  case title
}

/// What `list` selects beyond open or done, and how it orders them.
struct ListQuery: Hashable, Sendable {
  /// `--tag`: the todos must have every one of these, in any case.
  var tags: [String] = []
  /// `--overdue`: only todos due strictly before today.
  var overdue = false
  /// `--due-before`: only todos due strictly before this date.
  var dueBefore: DateArgument?
  /// `--search`: only todos whose title holds this text, without regard to case or accents.
  var search: String?
  /// `--sort`; without it, the order the todos were added in.
  var sort: SortKey?
}

/// A parsed command line: the command and the global options.
struct Invocation: Hashable, Sendable {
  var command: Command
  /// `--store <dir>`, if given.
  var storeDirectory: String?
  /// `--record <file>`, if given.
  var recordPath: String?

  init(command: Command, storeDirectory: String? = nil, recordPath: String? = nil) {
    self.command = command
    self.storeDirectory = storeDirectory
    self.recordPath = recordPath
  }
}

/// A command line that cannot be run as written: exit status 2.
struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong, naming the argument.
  var message: String
  /// The command the arguments were for, to point at its help.
  var command: String?

  init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  /// The message and where to find help.
  var description: String {
    let help = command.map { "todo-cli \($0) --help" } ?? "todo-cli --help"
    return "\(message)\nRun '\(help)' for usage."
  }
}
