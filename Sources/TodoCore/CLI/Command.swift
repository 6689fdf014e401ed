/// What a `todo-cli` invocation asks for, once its arguments are parsed.
enum Command: Hashable, Sendable {
  /// `add <title>`: add an open todo and print its id.
  case add(title: String)
  /// `list [--all | --done | --open] [--json]`.
  case list(ListFilter, json: Bool)
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
  /// `history`: show the recorded changes, newest last.
  case history
  /// `replay <log> [--json]`: replay an action log onto an empty list and print it.
  case replay(path: String, json: Bool)
  /// `ui`: the interactive terminal interface.
  case ui
  /// `--help`, `help [command]`: the program's help, or one command's.
  case help(command: String?)
  /// `--version`.
  case version

  /// Whether the command changes the store, and so takes its exclusive lock.
  var changesStore: Bool {
    switch self {
    case .add, .setDone, .edit, .remove, .clear, .undo: true
    case .list, .history, .replay, .ui, .help, .version: false
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
