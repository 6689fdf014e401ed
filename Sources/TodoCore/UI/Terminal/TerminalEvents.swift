import Dispatch
import Glibc

/// Something the terminal UI must react to.
enum TerminalEvent: Sendable, Equatable {
  /// Bytes the user typed, as one read returned them.
  case input([UInt8])
  /// The terminal changed size (`SIGWINCH`).
  case resize
  /// Standard input closed: the terminal went away.
  case endOfInput
  /// A signal asked the process to stop (`SIGTERM`, `SIGINT`, `SIGHUP`); the terminal is
  /// already restored when this arrives.
  case terminate(signal: Int32)
}

/// Delivers keyboard input, resizes and termination signals as one stream of events.
///
/// Reads and signals are watched with Dispatch sources, so nothing runs in a signal handler's
/// restricted context: the termination sources restore the terminal at once, on their own queue,
/// and then tell the UI loop to finish.
final class TerminalEventSource {
  /// The events, in the order they happened.
  let events: AsyncStream<TerminalEvent>
  private let sources: [any DispatchSourceProtocol]
  private static let terminationSignals = [SIGTERM, SIGINT, SIGHUP]

  /// Starts watching `input` and the signals; `session` is restored when a termination signal
  /// arrives.
  init(input: Int32 = STDIN_FILENO, session: TerminalSession) {
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    self.events = events
    let queue = DispatchQueue(label: "todo-cli.terminal-events")
    var sources: [any DispatchSourceProtocol] = []

    let reader = DispatchSource.makeReadSource(fileDescriptor: input, queue: queue)
    reader.setEventHandler {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count > 0 {
        continuation.yield(.input(Array(buffer[0..<count])))
      } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
        continuation.yield(.endOfInput)
        reader.cancel()
      }
    }
    sources.append(reader)

    for number in Self.terminationSignals + [SIGWINCH] {
      // Dispatch can only see a signal whose default action has been turned off.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        if number == SIGWINCH {
          continuation.yield(.resize)
        } else {
          session.restore()
          continuation.yield(.terminate(signal: number))
        }
      }
      sources.append(source)
    }
    self.sources = sources
    for source in sources { source.resume() }
  }

  /// Stops watching and gives the signals their default actions back.
  func stop() {
    for source in sources { source.cancel() }
    for number in Self.terminationSignals + [SIGWINCH] { signal(number, SIG_DFL) }
  }
}
