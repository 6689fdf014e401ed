/// Runs a ``TerminalApplication`` on the real terminal until it finishes.
///
/// The loop reads events one at a time: keys are decoded and handed to the application, a
/// resize redraws the whole screen at the new size, and after each event only what changed is
/// written. Whatever way the loop ends (the application finishing, Ctrl-C, a termination signal,
/// the terminal closing), the terminal is restored before `run` returns.
@MainActor
package struct TerminalRunner {
  /// The exit status for Ctrl-C, following the shell's 128 + `SIGINT` convention.
  package static let interruptExitCode: Int32 = 130

  private let session: TerminalSession

  /// Creates a runner for a terminal session that has not been entered yet.
  package init(session: TerminalSession) {
    self.session = session
  }

  /// Enters raw mode and the alternate screen, runs the application and restores the terminal.
  ///
  /// - Returns: The application's exit status, 130 for Ctrl-C, 128 + the signal number for a
  ///   termination signal, or 1 when the terminal closes.
  /// - Throws: ``TerminalError`` if the terminal cannot be set up.
  package func run(_ application: some TerminalApplication) async throws(TerminalError) -> Int32 {
    try session.enter()
    let source = TerminalEventSource(session: session)
    defer {
      source.stop()
      session.restore()
    }
    var decoder = KeyDecoder()
    var renderer = FrameRenderer()
    var size = session.size

    func draw() {
      let frame = application.frame(width: size.width, height: size.height)
      session.write(renderer.output(for: frame))
    }

    draw()
    for await event in source.events {
      switch event {
      case .input(let bytes):
        for key in decoder.decode(bytes) {
          if key == .interrupt { return Self.interruptExitCode }
          await application.handle(key)
          if let code = application.exitCode { return code }
        }
      case .resize:
        size = session.size
        renderer.invalidate()
      case .endOfInput:
        return 1
      case .terminate(let signal):
        return 128 + signal
      case .tick:
        // Nothing typed is touched: only the todos are caught up, and only a change redraws.
        guard await application.refresh() else { continue }
      }
      draw()
    }
    return 1
  }
}
