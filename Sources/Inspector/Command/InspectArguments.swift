import ActionLog

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
    case changes(of: [PathStep])
    /// Counts by type, scope and cause, the time span, the slowest gaps.
    case summary
    /// The HTML report, written to a file.
    case html(path: String)
    /// Where the value at a path came from: the entry that last changed it at or before
    /// entry `at` (the last entry when `nil`), and the chain of causes behind that entry.
    case why(of: [PathStep], at: Int?)
  }

  /// The log to read.
  package var file: String
  /// The question.
  package var query: Query = .timeline
  /// Whether to answer in JSON.
  package var json = false
  /// Whether to keep reading as the log grows (timeline only).
  package var follow = false
  /// Whether the timeline opens the terminal interface.
  package var interface = Interface.automatic

  /// How the timeline is shown.
  package enum Interface: Equatable, Sendable {
    /// The terminal interface when standard input and output are a terminal, else text.
    case automatic
    /// The terminal interface (`--tui`).
    case terminal
    /// Text, one line per entry (`--plain`).
    case plain
  }

  /// Whether to open the terminal interface, given whether standard input and output are a
  /// terminal: `--tui` always does, `--plain` never, and otherwise the timeline does, without
  /// `--json`, on a terminal.
  package func opensTerminalInterface(onTerminal: Bool) -> Bool {
    switch interface {
    case .terminal: true
    case .plain: false
    case .automatic: query == .timeline && !json && onTerminal
    }
  }

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
    var interface = Interface.automatic
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
    func path(_ option: String) throws -> [PathStep] {
      let text = try value(option)
      guard let path = StatePath.steps(text) else {
        throw UsageError(
          description: "\(option): '\(TextOutput.safe(text))' is not a path; write "
            + "/todos/0/title, todos[0].title or todos[id=3].title")
      }
      return path
    }
    func setQuery(_ new: Query, _ option: String) throws {
      guard query == nil else {
        throw UsageError(
          description: "\(option): ask one question at a time (--at, --diff, --changes-of, "
            + "--why, --summary, --html)")
      }
      query = new
    }
    var onlyFiles = false
    var at: Int?
    var why: [PathStep]?
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
      case "--tui", "--plain":
        let chosen: Interface = argument == "--tui" ? .terminal : .plain
        guard interface == .automatic || interface == chosen else {
          throw UsageError(description: "--tui and --plain: choose one")
        }
        interface = chosen
      case "--at":
        guard at == nil else { throw UsageError(description: "--at: give it once") }
        at = try number(argument)
      case "--why":
        let path = try path(argument)
        guard why == nil else { throw UsageError(description: "--why: give it once") }
        why = path
      case "--diff":
        let from = try number(argument)
        try setQuery(.diff(from: from, to: try number(argument)), argument)
      case "--changes-of":
        try setQuery(.changes(of: try path(argument)), argument)
      case "--summary": try setQuery(.summary, argument)
      case "--html": try setQuery(.html(path: try value(argument)), argument)
      default:
        throw UsageError(
          description: "unknown option '\(TextOutput.safe(argument))'; see --help")
      }
      index += 1
    }
    if let why {
      try setQuery(.why(of: why, at: at), "--why")
    } else if let at {
      try setQuery(.state(after: at), "--at")
    }
    guard let file else { throw UsageError(description: "which log? give its path; see --help") }
    if follow, let query, query != .timeline {
      throw UsageError(description: "--follow shows the timeline; it takes no other question")
    }
    if interface == .terminal, json || (query ?? .timeline) != .timeline {
      throw UsageError(
        description: "--tui shows the timeline and its entries; it takes no --json nor question")
    }
    self.file = file
    self.interface = interface
    self.query = query ?? .timeline
    self.json = json
    self.follow = follow
  }

  /// The text of `--help`.
  package static let help = """
    statestore-inspect: show a recorded StateStore session, an action log, without the app

    usage: statestore-inspect [--tui | --plain] [--follow] LOG
           statestore-inspect [--json] [QUESTION] LOG
           statestore-inspect --follow [--json] LOG

    With no question, on a terminal, opens the interactive interface: the timeline, each
    entry's payload, diff and state (a folding tree), two entries compared, the entries
    that changed a value. Press ? in it for every key. When standard input or output is
    not a terminal (a pipe, a file), or with --plain or --json, prints the timeline
    instead: one line per entry (seq, time, scope, type, cause, the paths it changed) and
    per checkpoint.

    questions:
      --at N              the state after entry seq N (0: before the first entry)
      --diff A B          what changed from the state after entry A to the state after B
      --changes-of PATH   the entries that changed PATH (/todos/0/title or todos[0].title;
                          todos[id=3].title follows the element whose id is 3 wherever
                          it moves)
      --why PATH [--at N] where the value at PATH after entry N (the last entry without
                          --at) came from: the entry that last changed it, the file:line
                          that dispatched it, and each effect behind it, back to the
                          user's action (sites are recorded in diff mode)
      --summary           counts by type, scope and cause, the time span, the slowest gaps
      --html FILE         write a self-contained HTML report of the whole session to FILE

    options:
      --json              answer in JSON (the timeline: one JSON object per line)
      --follow, -f        keep reading as the log grows: new entries show within a second
                          (in the interface, or printed until interrupted)
      --tui               open the interface even if the terminal test fails (it needs a
                          terminal all the same); takes no question and no --json
      --plain             print the timeline as text even on a terminal
      --help, -h          this text

    keys of the interface (? lists them on each screen):
      j/k or arrows move, g/G first/last, enter open, / filter (type:W scope:W cause:W
      or any text; enter keeps, esc clears), m mark, c compare the marked entry with
      this one, tab or p/d/s/e an entry's payload/diff/state/effects, [ ] previous/next
      entry, enter/space fold, h where the value changed, esc back, q quit

    The state after an entry is known when the log was recorded in diff mode
    (ActionRecorder.Options(recordsDiffs: true), todo-cli --record), or at checkpoints.

    exit status: 0 done; 1 the log cannot be read, is damaged (what came before the
    damage is printed first, then the line at fault), or does not hold the answer;
    2 usage error (also: --tui without a terminal).

    """
}
