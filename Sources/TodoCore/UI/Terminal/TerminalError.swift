/// Why the terminal UI could not start or had to stop.
enum TerminalError: Error, Equatable, CustomStringConvertible {
  /// Standard input (or output) is a file or a pipe, where a full-screen UI cannot run.
  case notATerminal(stream: String)
  /// A terminal call failed; `call` names it and `code` is `errno`.
  case systemCall(call: String, code: Int32)

  /// The exit status the command reports for this error: 2 is a usage error.
  var exitCode: Int32 {
    switch self {
    case .notATerminal: 2
    case .systemCall: 1
    }
  }

  var description: String {
    switch self {
    case .notATerminal(let stream):
      "standard \(stream) is not a terminal; `todo-cli ui` needs an interactive terminal "
        + "(use `todo-cli list` and the other commands in scripts and pipes)"
    case .systemCall(let call, let code):
      "the terminal could not be set up: \(call) failed with error \(code)"
    }
  }
}
