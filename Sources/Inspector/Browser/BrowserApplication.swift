import ActionLog
import Foundation
import TerminalKit

/// The terminal interface of `statestore-inspect`: a log, the state of what is shown, and, with
/// `--follow`, the file read as it grows.
///
/// The terminal loop (``TerminalRunner``) hands it keys and asks it for frames; both are passed
/// on to ``BrowserState`` and ``BrowserView``, so the frame on screen is exactly the one the
/// tests read.
@MainActor
package final class BrowserApplication: TerminalApplication {
  /// What is shown.
  package private(set) var state: BrowserState
  /// The log's lines, as indexed so far.
  package private(set) var session: SessionIndex
  /// Whether there is more of the log to read: until its end, then (with `--follow`) what is
  /// appended; `false` once it is read whole, damaged or unreadable.
  private var reading: Bool

  /// How many chunks of ``LineIndex/chunkBytes`` a log read whole gains between two frames.
  package static let chunksPerRefresh = 64

  /// Opens the log at `path` and indexes its first chunk, so that the first screen shows before
  /// a large log is indexed whole; ``refresh()`` indexes the rest, and with `follow` what is
  /// appended after.
  ///
  /// A damaged log opens too: its entries up to the damage, with the damage on the status line.
  ///
  /// - Throws: ``InspectorError`` when the file cannot be read.
  /// - Complexity: O(``LineIndex/chunkBytes``).
  package init(path: String, follow: Bool) throws(InspectorError) {
    if case .snapshot = LogInput(path: path) {
      throw InspectorError(
        "\(path) is a StatePersistence snapshot, one value, not a session: give --plain or "
          + "--json to see it")
    }
    var session: SessionIndex
    do {
      session = try SessionIndex(path: path)
    } catch {
      throw InspectorError(Follower.message(error, path: path))
    }
    reading = session.read(following: follow) != .finished
    self.session = session
    state = BrowserState(
      title: TextOutput.safe(URL(fileURLWithPath: path).lastPathComponent), following: follow,
      session: session)
  }

  package var exitCode: Int32? { state.exitCode }

  package func handle(_ key: Key) async {
    state.handle(key, in: session)
    // A key that read an entry or a state may have found damage: the timeline ends before it.
    state.sessionGrew(session)
  }

  package func frame(width: Int, height: Int) -> Frame {
    BrowserView.draw(&state, session: session, width: width, height: height)
  }

  /// Indexes more of the log: up to ``chunksPerRefresh`` chunks of a log being read whole,
  /// and then, with `--follow`, what it gained since the last look.
  ///
  /// - Returns: Whether anything was read (or went wrong), so the screen must be drawn again.
  /// - Complexity: O(``chunksPerRefresh`` × ``LineIndex/chunkBytes``).
  package func refresh() async -> Bool {
    guard reading else { return false }
    let before = (session.linesRead, session.progress, session.damage)
    for _ in 0..<Self.chunksPerRefresh {
      let result = session.read(following: state.following)
      reading = result != .finished
      guard result == .more else { break }
    }
    state.sessionGrew(session)
    return session.linesRead != before.0 || session.progress != before.1
      || session.damage != before.2 || !reading
  }

  /// Runs the interface on the terminal for `arguments`, until the user quits.
  ///
  /// - Returns: The exit status: 0 after `q`, 1 when the log cannot be read or the terminal
  ///   cannot be set up, 2 when standard input or output is not a terminal, 130 after Ctrl-C.
  package static func run(_ arguments: InspectArguments, output: Inspector.Output) async -> Int32 {
    let session: TerminalSession
    do {
      session = try TerminalSession()
    } catch {
      output.message("statestore-inspect: \(error.description(advice: notATerminalAdvice))\n")
      return error.exitCode
    }
    let application: BrowserApplication
    do {
      application = try BrowserApplication(path: arguments.file, follow: arguments.follow)
    } catch {
      output.message("statestore-inspect: \(error)\n")
      return 1
    }
    do {
      return try await TerminalRunner(session: session).run(application)
    } catch {
      output.message("statestore-inspect: \(error.description(advice: notATerminalAdvice))\n")
      return error.exitCode
    }
  }

  private static let notATerminalAdvice =
    "--tui needs an interactive terminal (leave it out, or give --plain, for the text timeline)"
}
