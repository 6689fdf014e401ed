import Glibc
import Synchronization

/// The terminal while the UI owns it: raw mode, the alternate screen, a hidden cursor.
///
/// While the session is active, ``FatalSignalRestore`` is armed, so even a crash puts the
/// terminal back before the process dies.
///
/// ``restore()`` puts everything back and may be called any number of times from any thread: on
/// quit, from a signal handler's queue, and again from a `defer` on the way out. Once restored,
/// further writes are dropped, so a frame that was being drawn when a signal arrived cannot land
/// on the user's normal screen.
package final class TerminalSession: Sendable {
  private struct Guarded {
    var saved: termios?
    var active = false
  }

  private let input: Int32
  private let output: Int32
  private let guarded = Mutex(Guarded())

  /// Checks that `input` and `output` are terminals.
  ///
  /// - Throws: ``TerminalError/notATerminal(stream:)`` naming the first one that is not.
  package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(TerminalError) {
    guard isatty(input) == 1 else { throw .notATerminal(stream: "input") }
    guard isatty(output) == 1 else { throw .notATerminal(stream: "output") }
    self.input = input
    self.output = output
  }

  /// Switches to raw mode and the alternate screen, hides the cursor and turns autowrap off.
  ///
  /// - Throws: ``TerminalError/systemCall(call:code:)`` if the terminal's modes cannot be read or
  ///   set; the terminal is left as it was.
  package func enter() throws(TerminalError) {
    var original = termios()
    guard tcgetattr(input, &original) == 0 else {
      throw .systemCall(call: "tcgetattr", code: errno)
    }
    var raw = original
    cfmakeraw(&raw)
    // Output post-processing stays on so that anything written with "\n" still starts a line.
    raw.c_oflag = original.c_oflag
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    // Armed before raw mode, so a crash at any moment from here on restores the terminal.
    FatalSignalRestore.arm(
      input: input, output: output, saved: original, sequence: Self.restoreSequence)
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
      let code = errno
      FatalSignalRestore.disarm()
      throw .systemCall(call: "tcsetattr", code: code)
    }
    guarded.withLock { state in
      state.saved = original
      state.active = true
    }
    write(
      ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.disableAutowrap
        + ANSI.enableBracketedPaste)
  }

  /// Leaves the alternate screen, shows the cursor and restores the saved terminal modes.
  ///
  /// Idempotent and thread-safe; only the first call does anything.
  package func restore() {
    guarded.withLock { state in
      guard state.active else { return }
      state.active = false
      Self.writeAll(Self.restoreSequence, to: output)
      if var saved = state.saved {
        _ = tcsetattr(input, TCSAFLUSH, &saved)
      }
      FatalSignalRestore.disarm()
    }
  }

  /// What leaves the UI's terminal state: attributes reset, bracketed paste off, autowrap on,
  /// the cursor shown, the alternate screen left.
  package static let restoreSequence =
    ANSI.resetAttributes + ANSI.disableBracketedPaste + ANSI.enableAutowrap + ANSI.showCursor
    + ANSI.leaveAlternateScreen

  /// Whether the session is in raw mode and not restored yet.
  package var isActive: Bool { guarded.withLock { $0.active } }

  /// Writes `text` to the terminal, unless the session has been restored.
  package func write(_ text: String) {
    guarded.withLock { state in
      guard state.active else { return }
      Self.writeAll(text, to: output)
    }
  }

  /// The terminal's size in columns and rows, or 80 × 24 if the terminal does not say.
  package var size: (width: Int, height: Int) {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return (80, 24)
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  private static func writeAll(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }
}
