import Dispatch
import Glibc

/// Something the terminal UI must react to.
package enum TerminalEvent: Sendable, Equatable {
  /// Bytes the user typed, as one read returned them.
  case input([UInt8])
  /// The terminal changed size (`SIGWINCH`).
  case resize
  /// Standard input closed: the terminal went away.
  case endOfInput
  /// A signal asked the process to stop (`SIGTERM`, `SIGINT`, `SIGHUP`); the terminal is
  /// already restored when this arrives.
  case terminate(signal: Int32)
  /// Time to look for changes made elsewhere: a few times a second.
  case tick
}

/// Delivers keyboard input, resizes and termination signals as one stream of events.
///
/// Signals reach the loop through a self-pipe: the handler only writes the signal's number to a
/// pipe, which is async-signal-safe, and a Dispatch source reads it on an ordinary queue. (On
/// Linux a Dispatch signal source misses signals whose action is "ignore", and `SIGWINCH` is
/// ignored by default.) A termination signal restores the terminal at once, on that queue, and
/// then tells the UI loop to finish.
package final class TerminalEventSource {
  /// The events, in the order they happened.
  package let events: AsyncStream<TerminalEvent>
  private let sources: [any DispatchSourceProtocol]
  private static let terminationSignals = [SIGTERM, SIGINT, SIGHUP]

  /// How often ``TerminalEvent/tick`` comes: often enough that another process's change shows
  /// within a second.
  package static let tickInterval = DispatchTimeInterval.milliseconds(250)

  /// Starts watching `input` and the signals; `session` is restored when a termination signal
  /// arrives.
  package init(input: Int32 = STDIN_FILENO, session: TerminalSession) {
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    self.events = events
    let queue = DispatchQueue(label: "terminal-kit.events")
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

    if let signals = signalPipe {
      let watcher = DispatchSource.makeReadSource(fileDescriptor: signals.read, queue: queue)
      watcher.setEventHandler {
        var numbers = [UInt8](repeating: 0, count: 64)
        let count = numbers.withUnsafeMutableBytes { read(signals.read, $0.baseAddress, $0.count) }
        for number in numbers.prefix(max(count, 0)).map(Int32.init) {
          if number == SIGWINCH {
            continuation.yield(.resize)
          } else {
            session.restore()
            continuation.yield(.terminate(signal: number))
          }
        }
      }
      sources.append(watcher)
      for number in Self.terminationSignals + [SIGWINCH] {
        signal(number, forwardSignalToPipe)
      }
    }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + Self.tickInterval, repeating: Self.tickInterval)
    timer.setEventHandler { continuation.yield(.tick) }
    sources.append(timer)

    self.sources = sources
    for source in sources { source.resume() }
  }

  /// Stops watching and gives the signals their default actions back.
  package func stop() {
    for source in sources { source.cancel() }
    for number in Self.terminationSignals + [SIGWINCH] { signal(number, SIG_DFL) }
  }
}

/// The pipe that signal handlers write signal numbers to; `nil` if it could not be created, in
/// which case signals keep their default actions.
///
/// A global so that a C signal handler, which cannot capture anything, can reach it. It is
/// created on first use, which ``TerminalEventSource`` guarantees happens before any handler is
/// installed, so a handler only ever reads the initialised value.
private let signalPipe: (read: Int32, write: Int32)? = {
  var descriptors: [Int32] = [0, 0]
  guard pipe(&descriptors) == 0 else { return nil }
  for descriptor in descriptors {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
  }
  return (descriptors[0], descriptors[1])
}()

/// The signal handler: writes the signal number to the pipe, and nothing else.
private func forwardSignalToPipe(_ number: Int32) {
  guard let signals = signalPipe else { return }
  // The interrupted code may be about to read errno: the handler must leave it as it was.
  let savedErrno = errno
  defer { errno = savedErrno }
  var byte = UInt8(truncatingIfNeeded: number)
  _ = write(signals.write, &byte, 1)
}
