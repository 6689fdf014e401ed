import Foundation
import Inspector

/// Standard output, written in blocks.
///
/// A timeline of a million entries is not a million write calls; `--follow` flushes before each
/// wait, so new entries show at once.
final class BufferedOutput {
  private var buffer = Data()

  func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  func flush() {
    guard !buffer.isEmpty else { return }
    FileHandle.standardOutput.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}

let standardOutput = BufferedOutput()
let output = Inspector.Output(
  write: { standardOutput.write($0) },
  message: { message in
    standardOutput.flush()
    FileHandle.standardError.write(Data(message.utf8))
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
    return true
  })
standardOutput.flush()
exit(status)
