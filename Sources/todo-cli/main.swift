import Foundation
import TodoCore

// A closed pipe must be a write error the command reports (saying whether its change was
// saved), not a signal that kills it mid-way.
signal(SIGPIPE, SIG_IGN)

let status = await TodoCommandRunner.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  variables: ProcessInfo.processInfo.environment)
exit(status)
