import Foundation
import Inspector

/// Standard output, written in blocks.
///
/// A timeline of a million entries is not a million write calls; `--follow` flushes before each
/// wait, so new entries show at once. A write that fails (a closed pipe, a full disk) is kept,
/// not trapped on as `FileHandle.write(_:)` would: what follows is dropped, and the tool exits 1
/// saying why.
final class BufferedOutput {
  private var buffer = Data()
  /// The first write that failed, if any.
  private(set) var failure: (any Error)?

  func write(_ text: String) {
    guard failure == nil else { return }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  func flush() {
    guard !buffer.isEmpty, failure == nil else { return }
    do {
      try FileHandle.standardOutput.write(contentsOf: buffer)
    } catch {
      failure = error
    }
    buffer.removeAll(keepingCapacity: true)
  }
}

/// Writes `message` to standard error, as far as it can be written.
func printError(_ message: String) {
  try? FileHandle.standardError.write(contentsOf: Data(message.utf8))
}

let standardOutput = BufferedOutput()
let output = Inspector.Output(
  write: { standardOutput.write($0) },
  message: { message in
    standardOutput.flush()
    printError(message)
  })
let arguments = Array(CommandLine.arguments.dropFirst())
let onTerminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
if let parsed = try? InspectArguments(arguments),
  parsed.opensTerminalInterface(onTerminal: onTerminal)
{
  exit(await BrowserApplication.run(parsed, output: output))
}
let status = Inspector.run(
  arguments, output: output,
  wait: {
    standardOutput.flush()
    // --follow looks at the file four times a second, so a new entry shows within a second.
    Thread.sleep(forTimeInterval: 0.25)
    return standardOutput.failure == nil
  })
standardOutput.flush()
if let failure = standardOutput.failure {
  printError("statestore-inspect: cannot write the output: \(failure.localizedDescription)\n")
  exit(status == 0 ? 1 : status)
}
exit(status)
