/// How a `todo-cli` run ended, as the exit status a script reads: the status alone tells it, even
/// when no message could be written.
///
/// The one place that maps what happened to a status: ``TodoCommandRunner`` asks it for every
/// command, the help prints ``meaning``, and the terminal UI's status line begins a failed save
/// with the same ``advice`` the command line prints.
enum ExitCode: Int32, CaseIterable, Sendable {
  /// Done: the change is durable and the output was written.
  case done = 0
  /// Nothing changed: the store holds exactly what it held before.
  case unchanged = 1
  /// The command line could not be understood; nothing was read or changed.
  case usageError = 2
  /// The change is saved (durable), but its output or its `--record` entry could not be
  /// written: running the command again would repeat it.
  case savedWithoutOutput = 3
  /// A write failed and cutting the journal back failed too: the store holds all of the change
  /// or none of it, never a part.
  case unknown = 4

  /// What the status means, in one line of the help (`todo-cli --help`).
  var meaning: String {
    switch self {
    case .done: "done: any change is saved, and the output is written"
    case .unchanged: "nothing changed: an unknown id, an unreadable store, a failing disk"
    case .usageError: "usage error: nothing was read or changed"
    case .savedWithoutOutput: "saved, but its output or --record entry was lost: do not retry"
    case .unknown: "cannot tell: the change is saved whole or not at all; check with list"
    }
  }

  /// What a message about a run that ended with this status says last, if anything: what to
  /// do next.
  var advice: String? {
    switch self {
    case .savedWithoutOutput:
      "The change was saved: do not run the command again."
    case .unknown:
      "Cannot tell whether the change was saved: the store holds all of it or none of it. "
        + "Check with 'todo-cli list' before trying again."
    case .done, .unchanged, .usageError:
      nil
    }
  }

  /// The status of a run that stopped with `error`.
  static func failure(_ error: any Error) -> ExitCode {
    if error is UsageError { return .usageError }
    if case .uncertain? = error as? StorageError { return .unknown }
    return .unchanged
  }

  /// The status of a run that did its work, `saved` telling whether that saved a change, and
  /// then wrote its output (and its `--record` entry) or, with `outputLost`, could not.
  static func finished(saved: Bool, outputLost: Bool) -> ExitCode {
    guard outputLost else { return .done }
    return saved ? .savedWithoutOutput : .unchanged
  }

  /// The message for a run that stopped with `error`: the error, then the advice of its status.
  static func message(for error: any Error) -> String {
    [String(describing: error), failure(error).advice].compactMap { $0 }.joined(separator: ". ")
  }

  /// The terminal UI's status line for a change that failed with `error`: the advice of its
  /// status first, where a narrow line still shows it, then the error.
  static func statusLine(for error: any Error) -> String {
    guard let advice = failure(error).advice else { return String(describing: error) }
    return "\(advice) (\(error))"
  }
}
