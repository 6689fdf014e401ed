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
  /// The log being read: a chunk at a time until its end, then (with `--follow`) what is
  /// appended; `nil` once it is read whole, damaged or unreadable.
  private var tail: LogTail?
  private let path: String

  /// How many chunks of ``LineIndex/chunkBytes`` a log read whole gains between two frames.
  package static let chunksPerRefresh = 8

  /// Opens the log at `path` and reads its first chunk, so that the first screen shows before
  /// a large log is read whole; ``refresh()`` reads the rest, and with `follow` what is
  /// appended after.
  ///
  /// A damaged log opens too: its entries up to the damage, with the damage on the status line.
  ///
  /// - Throws: ``InspectorError`` when the file cannot be read.
  /// - Complexity: O(``LineIndex/chunkBytes``).
  package init(path: String, follow: Bool) throws(InspectorError) {
    self.path = path
    var session: SessionIndex
    let tail: LogTail
    do {
      session = SessionIndex(rereadingFrom: try LogLines(path: path))
      tail = try LogTail(path: path)
      session.progress = ReadingProgress(bytesRead: 0, fileSize: try tail.size())
    } catch {
      throw InspectorError(Follower.message(error, path: path))
    }
    let reading = Self.readChunk(of: tail, into: &session, follow: follow)
    self.tail = reading ? tail : nil
    self.session = session
    state = BrowserState(
      title: TextOutput.safe(URL(fileURLWithPath: path).lastPathComponent), following: follow,
      session: session)
  }

  /// Reads the next chunk of `tail` into `session`, or, once its end was reached and with
  /// `follow`, everything appended since.
  ///
  /// - Returns: Whether there may be more to read.
  /// - Complexity: O(``LineIndex/chunkBytes``), or O(bytes appended) when following.
  private static func readChunk(
    of tail: LogTail, into session: inout SessionIndex, follow: Bool
  ) -> Bool {
    do {
      guard session.progress != nil else {
        try tail.readNew { session.append($0, state: $1, at: $2) }
        return true
      }
      let read = try tail.readNew(upTo: LineIndex.chunkBytes) {
        session.append($0, state: $1, at: $2)
      }
      session.progress?.bytesRead = tail.bytesRead
      guard read < LineIndex.chunkBytes else { return true }
      session.progress = nil
      if tail.bytesRead == 0 {
        session.damage = LogFileReader.emptyFile
        return false
      }
      // A followed log's last line may still be being written: it waits for its newline.
      guard follow else {
        try tail.readLastLine { session.append($0, state: $1, at: $2) }
        return false
      }
      return true
    } catch {
      session.progress = nil
      session.damage = Self.damage(error)
      return false
    }
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

  /// Reads more of the log: up to ``chunksPerRefresh`` chunks of a log being read whole, and
  /// then, with `--follow`, what it gained since the last look.
  ///
  /// - Returns: Whether anything was read (or went wrong), so the screen must be drawn again.
  /// - Complexity: O(``chunksPerRefresh`` × ``LineIndex/chunkBytes``), or O(bytes appended).
  package func refresh() async -> Bool {
    guard let tail else { return false }
    let before = (session.recordCount, session.progress)
    var reading = true
    for _ in 0..<(session.progress == nil ? 1 : Self.chunksPerRefresh) where reading {
      reading = Self.readChunk(of: tail, into: &session, follow: state.following)
      if session.progress == nil { break }
    }
    if !reading { self.tail = nil }
    state.sessionGrew(session)
    return session.recordCount != before.0 || session.progress != before.1 || self.tail == nil
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
