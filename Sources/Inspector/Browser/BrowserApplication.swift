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
  /// The log's records, as read so far.
  package private(set) var session: SessionIndex
  /// The log being followed; `nil` without `--follow`, or once it is damaged or unreadable.
  private var tail: LogTail?
  private let path: String

  /// Reads the log at `path` (with `follow`, what it holds so far, and the rest as it comes).
  ///
  /// A damaged log opens too: its entries up to the damage, with the damage on the status line.
  ///
  /// - Throws: ``InspectorError`` when the file cannot be read.
  /// - Complexity: O(size of the log).
  package init(path: String, follow: Bool) throws(InspectorError) {
    self.path = path
    var session = SessionIndex()
    if follow {
      let tail: LogTail
      do {
        tail = try LogTail(path: path)
      } catch {
        throw InspectorError(Follower.message(error, path: path))
      }
      self.tail = tail
      do {
        try tail.readNew { session.append($0, state: $1) }
      } catch {
        session.damage = Self.damage(error)
        self.tail = nil
      }
    } else {
      let data = try LogFileReader.read(path)
      session.damage = LogFileReader.scan(data) { record, state in
        session.append(record, state: state)
        return true
      }
    }
    self.session = session
    state = BrowserState(
      title: TextOutput.safe(URL(fileURLWithPath: path).lastPathComponent), following: follow,
      session: session)
  }

  private static func damage(_ failure: LogTail.Failure) -> LogDamage {
    switch failure {
    case .damaged(let damage): damage
    case .unreadable(let message): LogDamage(line: 0, reason: message)
    }
  }

  package var exitCode: Int32? { state.exitCode }

  package func handle(_ key: Key) async {
    state.handle(key, in: session)
  }

  package func frame(width: Int, height: Int) -> Frame {
    state.scroll(toShowSelectionIn: height, session: session)
    return BrowserView.frame(of: state, session: session, width: width, height: height)
  }

  /// Reads what the log gained since the last look, with `--follow`.
  ///
  /// - Returns: Whether anything was read (or went wrong), so the screen must be drawn again.
  /// - Complexity: O(bytes appended).
  package func refresh() async -> Bool {
    guard let tail else { return false }
    let before = session.records.count
    do {
      try tail.readNew { session.append($0, state: $1) }
    } catch {
      session.damage = Self.damage(error)
      self.tail = nil
    }
    state.sessionGrew(session)
    return session.records.count != before || self.tail == nil
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
