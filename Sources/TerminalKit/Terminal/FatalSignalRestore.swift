import Glibc
import Synchronization

/// Puts the terminal back when the process dies from a fatal signal while the UI owns it.
///
/// A crash (a trap, a bad memory access, an abort) never reaches ``TerminalSession/restore()``,
/// and would leave the user's shell in raw mode on the alternate screen. While a session is
/// armed, handlers for `SIGSEGV`, `SIGBUS`, `SIGILL`, `SIGFPE`, `SIGABRT` and `SIGTRAP` leave the
/// alternate screen, show the cursor, set the saved terminal modes back, give the signal its
/// default action and raise it again, so the process still dies of that signal and its exit
/// status (128 + n in a shell) says so.
///
/// A signal handler may only make async-signal-safe calls. The handler calls `signal`, `write`,
/// `tcsetattr` and `raise`, all on POSIX's list, and reads what it needs (the descriptors, the
/// saved `termios`, the bytes to write) from memory prepared before the handlers are installed,
/// through a pointer, with no Swift runtime call on the way: no allocation, no reference
/// counting, no lazy global initialisation, no exclusivity check.
package enum FatalSignalRestore {
  /// The signals whose default action ends the process abnormally with a core dump: the ones
  /// a bug, rather than a request to stop, raises.
  package static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

  /// The most bytes the handler writes; the restore sequence is about 25.
  private static let capacity = 64

  /// The actions the handlers replaced, put back by ``disarm()``; the lock also orders every
  /// change to the shared memory the handler reads.
  private static let previousActions = Mutex<[Int32: sigaction]>([:])

  /// Arms the handlers: a fatal signal from now on writes `sequence` to `output` and sets
  /// `saved` on `input` before the process dies.
  ///
  /// Call it before switching the terminal to raw mode, so no moment of raw mode is uncovered.
  package static func arm(input: Int32, output: Int32, saved: termios, sequence: String) {
    previousActions.withLock { previous in
      let state = sharedState()
      let bytes = Array(sequence.utf8.prefix(capacity))
      state.pointee.input = input
      state.pointee.output = output
      state.pointee.termios = saved
      for (index, byte) in bytes.enumerated() { state.pointee.bytes[index] = byte }
      state.pointee.count = bytes.count
      state.pointee.armed = 1
      guard previous.isEmpty else { return }
      var action = sigaction()
      action.__sigaction_handler.sa_handler = restoreTerminalAndReraise
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      for number in signals {
        var old = sigaction()
        if sigaction(number, &action, &old) == 0 { previous[number] = old }
      }
    }
  }

  /// Disarms the handlers and puts back the actions they replaced; the terminal has been
  /// restored the ordinary way.
  package static func disarm() {
    previousActions.withLock { previous in
      fatalSignalState?.pointee.armed = 0
      for (number, old) in previous {
        var old = old
        _ = sigaction(number, &old, nil)
      }
      previous = [:]
    }
  }

  /// Whether a fatal signal would restore the terminal now.
  package static var isArmed: Bool {
    previousActions.withLock { _ in fatalSignalState.map { $0.pointee.armed != 0 } ?? false }
  }

  /// The memory the handler reads, allocated on first use.
  ///
  /// It is never freed, so the handler can never see it released. Called with the lock held.
  private static func sharedState() -> UnsafeMutablePointer<FatalSignalState> {
    if let state = fatalSignalState { return state }
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    bytes.initialize(repeating: 0, count: capacity)
    let state = UnsafeMutablePointer<FatalSignalState>.allocate(capacity: 1)
    state.initialize(
      to: FatalSignalState(
        armed: 0, input: -1, output: -1, termios: termios(), count: 0, bytes: bytes))
    fatalSignalState = state
    return state
  }
}

/// What the fatal-signal handler needs, as plain values it can read without the Swift runtime.
struct FatalSignalState {
  /// Nonzero while a session owns the terminal.
  var armed: Int32
  /// The terminal's input descriptor, whose modes are restored.
  var input: Int32
  /// The terminal's output descriptor, which the restore bytes are written to.
  var output: Int32
  /// The terminal's modes before the UI changed them.
  var termios: termios
  /// How many of `bytes` to write.
  var count: Int
  /// The escape sequences that leave the alternate screen and show the cursor.
  var bytes: UnsafeMutablePointer<UInt8>
}

/// The pointer the handler reads, `nil` until the first session arms the handlers.
///
/// Why this is safe without the usual guarantees:
/// - Its initial value is a constant, so the compiler places it in static memory: reading it
///   needs no lazy initialiser (`swift_once`), which a handler must not call.
/// - `@exclusivity(unchecked)` removes the dynamic exclusivity check (`swift_beginAccess`), a
///   runtime call; no access can overlap anyway, because it is written once, under
///   `FatalSignalRestore`'s lock, before any handler is installed, and only read afterwards.
/// - The fields it points to change only under that lock. The handler reads them unlocked (it
///   must not take a lock): it runs only when the process is dying, aligned 32-bit and pointer
///   loads cannot tear on our platforms, and the worst a stale `armed` does is write the
///   restore bytes once more or skip them after an ordinary restore already wrote them.
#if !STATESTORE_CHECKED_EXCLUSIVITY
  @exclusivity(unchecked)
#endif
nonisolated(unsafe) private var fatalSignalState: UnsafeMutablePointer<FatalSignalState>? = nil

/// The handler: only async-signal-safe calls, on memory prepared before it was installed.
private func restoreTerminalAndReraise(_ number: Int32) {
  // The default action first: a fault inside this handler then ends the process at once.
  _ = signal(number, nil)
  if let state = fatalSignalState, state.pointee.armed != 0 {
    state.pointee.armed = 0
    let output = state.pointee.output
    let bytes = state.pointee.bytes
    let count = state.pointee.count
    var written = 0
    while written < count {
      let result = write(output, bytes + written, count &- written)
      if result > 0 {
        written &+= result
      } else if result < 0, errno == EINTR {
        continue
      } else {
        break
      }
    }
    _ = tcsetattr(state.pointee.input, TCSANOW, &state.pointee.termios)
  }
  // Blocked while the handler runs, the signal is delivered with its default action as soon
  // as the handler returns, so the exit status names it.
  _ = raise(number)
}
