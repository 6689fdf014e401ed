/// What `statestore-inspect` was asked to do, parsed from its arguments.
package struct InspectArguments: Equatable, Sendable {
  /// One question about the log.
  package enum Query: Equatable, Sendable {
    /// Every entry, one per line (the default).
    case timeline
    /// The state after entry `seq` N.
    case state(after: Int)
    /// The diff from the state after entry A to the state after entry B.
    case diff(from: Int, to: Int)
    /// The entries that changed a path.
    case changes(of: [String])
    /// Counts by type, scope and cause, the time span, the slowest gaps.
    case summary
    /// The HTML report, written to a file.
    case html(path: String)
  }

  /// The log to read.
  package var file: String
  /// The question.
  package var query: Query = .timeline
  /// Whether to answer in JSON.
  package var json = false
  /// Whether to keep reading as the log grows (timeline only).
  package var follow = false

  /// A usage error: exit status 2.
  package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var description: String
  }

  /// The arguments were `--help` or `-h`.
  package struct HelpRequest: Error, Equatable, Sendable {}

  /// Parses the arguments, without the program's name.
  ///
  /// - Throws: ``HelpRequest`` for `--help`; ``UsageError`` naming what is wrong.
  /// - Complexity: O(arguments).
  package init(_ arguments: [String]) throws {
    var file: String?
    var query: Query?
    var json = false
    var follow = false
    var index = 0
    func value(_ option: String) throws -> String {
      index += 1
      guard index < arguments.count else {
        throw UsageError(description: "\(option) needs a value")
      }
      return arguments[index]
    }
    func number(_ option: String) throws -> Int {
      let text = try value(option)
      guard let number = Int(text), number >= 0 else {
        throw UsageError(description: "\(option) needs an entry's seq (0 or more), not '\(text)'")
      }
      return number
    }
    func setQuery(_ new: Query, _ option: String) throws {
      guard query == nil else {
        throw UsageError(
          description: "\(option): ask one question at a time (--at, --diff, --changes-of, "
            + "--summary, --html)")
      }
      query = new
    }
    var onlyFiles = false
    while index < arguments.count {
      let argument = arguments[index]
      if onlyFiles || !argument.hasPrefix("-") || argument == "-" {
        guard file == nil else {
          throw UsageError(description: "one log at a time: '\(file ?? "")' and '\(argument)'")
        }
        file = argument
        index += 1
        continue
      }
      switch argument {
      case "--": onlyFiles = true
      case "--help", "-h": throw HelpRequest()
      case "--json": json = true
      case "--follow", "-f": follow = true
      case "--at": try setQuery(.state(after: try number(argument)), argument)
      case "--diff":
        let from = try number(argument)
        try setQuery(.diff(from: from, to: try number(argument)), argument)
      case "--changes-of":
        let text = try value(argument)
        guard let path = StatePath.tokens(text) else {
          throw UsageError(
            description: "--changes-of: '\(TextOutput.safe(text))' is not a path; write "
              + "/todos/0/title or todos[0].title")
        }
        try setQuery(.changes(of: path), argument)
      case "--summary": try setQuery(.summary, argument)
      case "--html": try setQuery(.html(path: try value(argument)), argument)
      default:
        throw UsageError(
          description: "unknown option '\(TextOutput.safe(argument))'; see --help")
      }
      index += 1
    }
    guard let file else { throw UsageError(description: "which log? give its path; see --help") }
    if follow, let query, query != .timeline {
      throw UsageError(description: "--follow shows the timeline; it takes no other question")
    }
    self.file = file
    self.query = query ?? .timeline
    self.json = json
    self.follow = follow
  }

  /// The text of `--help`.
  package static let help = """
    statestore-inspect: show a recorded StateStore session, an action log, without the app

    usage: statestore-inspect [--json] [QUESTION] LOG
           statestore-inspect --follow [--json] LOG

    With no question, prints the timeline: one line per entry (seq, time, scope, type,
    cause, the paths it changed) and per checkpoint.

    questions:
      --at N              the state after entry seq N (0: before the first entry)
      --diff A B          what changed from the state after entry A to the state after B
      --changes-of PATH   the entries that changed PATH (/todos/0/title or todos[0].title)
      --summary           counts by type, scope and cause, the time span, the slowest gaps
      --html FILE         write a self-contained HTML report of the whole session to FILE

    options:
      --json              answer in JSON (the timeline: one JSON object per line)
      --follow, -f        print the timeline, then each new entry as the log grows,
                          until interrupted
      --help, -h          this text

    The state after an entry is known when the log was recorded in diff mode
    (ActionRecorder.Options(recordsDiffs: true), todo-cli --record), or at checkpoints.

    exit status: 0 done; 1 the log cannot be read, is damaged (what came before the
    damage is printed first, then the line at fault), or does not hold the answer;
    2 usage error.

    """
}
