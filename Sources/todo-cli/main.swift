import Foundation
import TodoCore

let status = await TodoCommandRunner.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  variables: ProcessInfo.processInfo.environment)
exit(status)
