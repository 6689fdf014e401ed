/// Why a terminal interface could not start or had to stop.
package enum TerminalError: Error, Equatable, CustomStringConvertible {
  /// Standard input (or output) is a file or a pipe, where a full-screen UI cannot run.
  case notATerminal(stream: String)
  /// A terminal call failed; `call` names it and `code` is `errno`.
  case systemCall(call: String, code: Int32)

  /// The exit status the command reports for this error: 2 is a usage error.
  package var exitCode: Int32 {
    switch self {
    case .notATerminal: 2
    case .systemCall: 1
    }
  }

  /// What went wrong, without advice: each command adds what to use instead (see
  /// ``description(advice:)``).
  package var description: String {
    switch self {
    case .notATerminal(let stream):
      "standard \(stream) is not a terminal"
    case .systemCall(let call, let code):
      "the terminal could not be set up: \(call) failed with error \(code)"
    }
  }

  /// The description, followed for ``notATerminal(stream:)`` by `advice`: what the command
  /// needs, and what to use in scripts and pipes.
  package func description(advice: String) -> String {
    switch self {
    case .notATerminal: description + "; " + advice
    case .systemCall: description
    }
  }
}
