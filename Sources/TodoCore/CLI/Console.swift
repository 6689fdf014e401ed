import Foundation

/// Where a command writes: standard output for results, standard error for messages.
///
/// Tests pass a console that collects the text. A command's results go through
/// ``checkedOutput``, so that a result that could not be written (a closed pipe, a full disk)
/// fails the command instead of vanishing.
package struct Console: Sendable {
  /// Writes to standard output, ignoring failures.
  var output: @Sendable (String) -> Void
  /// Writes to standard error.
  var error: @Sendable (String) -> Void
  /// Writes to standard output, throwing when the text could not be written in full.
  var checkedOutput: @Sendable (String) throws -> Void
  /// Whether standard output is a terminal, where titles are shown with their control
  /// characters escaped (see ``TodoFormatter/text(_:forTerminal:)``); `false` unless set.
  var isTerminal = false

  /// Creates a console from two writers that cannot fail.
  init(
    output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void
  ) {
    self.output = output
    self.error = error
    self.checkedOutput = { output($0) }
  }

  /// Creates a console whose output writer reports failures by throwing.
  init(
    checkedOutput: @escaping @Sendable (String) throws -> Void,
    error: @escaping @Sendable (String) -> Void
  ) {
    self.checkedOutput = checkedOutput
    // For callers that cannot act on a failed write; commands use `checkedOutput`.
    self.output = { text in
      do { try checkedOutput(text) } catch {}
    }
    self.error = error
  }

  /// The process's standard output and standard error, unbuffered: each call writes at once.
  ///
  /// A failed write to standard output throws an ``OutputError``; one to standard error is
  /// ignored, as there is nowhere left to report it.
  package static let standard: Console = {
    var console = Console(
      checkedOutput: { text in try OutputError.write(text, to: STDOUT_FILENO) },
      error: { text in
        do { try OutputError.write(text, to: STDERR_FILENO) } catch {}
      })
    console.isTerminal = isatty(STDOUT_FILENO) == 1
    return console
  }()
}

/// Writing a command's output failed.
struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The system's reason, such as "Broken pipe" or "No space left on device".
  var reason: String

  init(reason: String) {
    self.reason = reason
  }

  var description: String { reason }

  /// Writes all of `text` to `descriptor`, retrying after interruptions and short writes.
  ///
  /// - Complexity: O(text's UTF-8 length).
  static func write(_ text: String, to descriptor: Int32) throws(OutputError) {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        systemWrite(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written)
      }
      if result < 0 {
        let code = errno
        if code == EINTR { continue }
        throw OutputError(reason: String(cString: strerror(code)))
      }
      if result == 0 { throw OutputError(reason: "the output took no bytes") }
      written += result
    }
  }
}

/// The POSIX `write`, which `OutputError.write(_:to:)` shadows.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
